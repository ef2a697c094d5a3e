/**
 * Forced alignment where one side lacks a long stretch, on real read speech (align-dev: 40 sentences with
 * their measured times): the audio cut where the script still has the lines, or the script without lines the
 * audio still has. Every line said must be on its own speech within 120 ms at both ends, and exactly the
 * lines not said must be reported. The aligner runs as the engine runs it, with Silero VAD measuring the
 * noise floor.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { alignSpeech } from '../../src/engine/align/align-speech';
import { detectSpeech } from '../../src/engine/stt/speech-vad';
import { ALIGN_DEV } from '../helpers/align-dev';
import { testModel } from '../helpers/test-models';
import { configureTestEngine } from '../helpers/engine-config';

// Engine code runs in this process too: configured from the environment, as the host configures its engine processes.
configureTestEngine({});

interface Sentence {
  start: number;
  end: number;
  text: string;
}

const SAMPLE_RATE = 16000;
const BOUND_SECONDS = 0.12;

async function devSet(): Promise<{ pcm: Int16Array; sentences: Sentence[] }> {
  const wav = await readFile(ALIGN_DEV('dev-a.wav'));
  const data = wav.indexOf('data') + 8;
  const samples = Math.floor((wav.length - data) / 2);
  const pcm = new Int16Array(samples);
  for (let i = 0; i < samples; i++) pcm[i] = wav.readInt16LE(data + 2 * i);
  const truth = JSON.parse(await readFile(ALIGN_DEV('dev-a.truth.json'), 'utf8')) as { sentences: Sentence[] };
  return { pcm, sentences: truth.sentences };
}

/** Lines `first`–`last` (numbered from 1) cut from the audio, in the middle of the pauses around them. */
function audioWithout(
  pcm: Int16Array,
  sentences: readonly Sentence[],
  first: number,
  last: number,
): { pcm: Int16Array; expected: Array<Sentence | null> } {
  const from = Math.round(((sentences[first - 2].end + sentences[first - 1].start) / 2) * SAMPLE_RATE);
  const to = Math.round(((sentences[last - 1].end + sentences[last].start) / 2) * SAMPLE_RATE);
  const cut = new Int16Array(pcm.length - (to - from));
  cut.set(pcm.subarray(0, from));
  cut.set(pcm.subarray(to), from);
  const shift = (to - from) / SAMPLE_RATE;
  const expected = sentences.map((s, i) =>
    i >= first - 1 && i < last
      ? null
      : s.start * SAMPLE_RATE >= to
        ? { ...s, start: s.start - shift, end: s.end - shift }
        : s,
  );
  return { pcm: cut, expected };
}

/** Aligns `texts` to `pcm` and checks each line against `expected` (null: not said, must be reported). */
async function alignAndCheck(
  pcm: Int16Array,
  texts: string[],
  expected: ReadonlyArray<Sentence | null>,
): Promise<void> {
  const speech = await detectSpeech(pcm, testModel('vad', 'ggml-silero-v6.2.0.bin'), 2);
  const { units } = await alignSpeech({ pcm, sampleRate: SAMPLE_RATE, speech, texts, voice: 'en' });
  const problems: string[] = [];
  units.forEach((unit, i) => {
    const said = expected[i]!;
    if (!said) {
      if (unit.matched)
        problems.push(
          `line ${i + 1} is not in the audio but was placed at ${unit.start.toFixed(2)}–${unit.end.toFixed(2)}`,
        );
      return;
    }
    if (!unit.matched) problems.push(`line ${i + 1} was said at ${said.start}–${said.end} but reported not found`);
    else if (Math.abs(unit.start - said.start) > BOUND_SECONDS || Math.abs(unit.end - said.end) > BOUND_SECONDS) {
      problems.push(
        `line ${i + 1} at ${unit.start.toFixed(2)}–${unit.end.toFixed(2)}, said at ${said.start.toFixed(2)}–${said.end.toFixed(2)}`,
      );
    }
  });
  assert.deepEqual(problems, []);
}

describe('forced alignment where one side lacks a long stretch (real speech)', () => {
  it('reports lines 21–26 missing from the audio (23 s), and keeps lines 20 and 27 on their own speech', async () => {
    const { pcm, sentences } = await devSet();
    const cut = audioWithout(pcm, sentences, 21, 26);
    await alignAndCheck(
      cut.pcm,
      sentences.map((s) => s.text),
      cut.expected,
    );
  });

  it('reports lines 30–36 missing from the audio, and no line beside them', async () => {
    const { pcm, sentences } = await devSet();
    const cut = audioWithout(pcm, sentences, 30, 36);
    await alignAndCheck(
      cut.pcm,
      sentences.map((s) => s.text),
      cut.expected,
    );
  });

  it('keeps lines 20 and 27 on their own speech when the script lacks lines 21–26 that the audio has', async () => {
    const { pcm, sentences } = await devSet();
    const kept = sentences.filter((_, i) => i < 20 || i >= 26);
    await alignAndCheck(
      pcm,
      kept.map((s) => s.text),
      kept,
    );
  });

  it('keeps every line on its own speech when the script lacks lines 9–14 that the audio has', async () => {
    const { pcm, sentences } = await devSet();
    const kept = sentences.filter((_, i) => i < 8 || i >= 14);
    await alignAndCheck(
      pcm,
      kept.map((s) => s.text),
      kept,
    );
  });

  it('aligns the whole script with every line, short ones included, on its own speech', async () => {
    const { pcm, sentences } = await devSet();
    await alignAndCheck(
      pcm,
      sentences.map((s) => s.text),
      sentences,
    );
  });
});
