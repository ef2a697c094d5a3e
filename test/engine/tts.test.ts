import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TtsRequest } from '../../src/contract/types';
import { readWavSamples } from '../../src/audio/wav-reader';
import { UserFacingError, type EnginePhase, type TtsTask } from '../../src/engine-api/protocol';
import { runTtsTask } from '../../src/engine/tts/run-tts';

const DEFAULT_OPTIONS: Omit<TtsRequest, 'text'> = {
  voiceId: '59ecd22d-96db-56b8-a0f4-62d14ba28a8b',
  language: 'auto',
  inputFormat: 'txt',
  outputFormat: 'wav',
  sampleRate: 24000,
  bitrateKbps: 128,
  audioChannels: 'mono',
  steps: 32,
  guidanceScale: 2,
  speed: 1,
  duration: null,
  denoise: true,
  preprocessPrompt: true,
  postprocessOutput: true,
  trimSilence: true,
};
const SENTENCE = 'Speech Studio reads this sentence aloud, clearly and calmly.';

let dir: string;
let runs = 0;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tts-engine-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  outcome: Awaited<ReturnType<typeof runTtsTask>>;
  result: Record<string, unknown>;
  file: Buffer;
  wav: ReturnType<typeof readWavSamples>;
  progress: { phase: EnginePhase; value: number }[];
}

async function synthesize(
  text: string,
  options: Partial<TtsTask['options']> = {},
  engineVoiceId = 'gmw/en-US',
): Promise<Run> {
  const task = await taskFor(text, options, engineVoiceId);
  const progress: Run['progress'] = [];
  const outcome = await runTtsTask(task, (phase, value) => progress.push({ phase, value }));
  const file = await readFile(task.outputPath);
  return { outcome, result: outcome.result, file, wav: readWavSamples(file), progress };
}

async function taskFor(text: string, options: Partial<TtsTask['options']>, engineVoiceId: string): Promise<TtsTask> {
  const run = ++runs;
  const textPath = join(dir, `text-${run}.txt`);
  await writeFile(textPath, text);
  return {
    kind: 'tts',
    textPath,
    outputPath: join(dir, `out-${run}.wav`),
    options: { ...DEFAULT_OPTIONS, ...options },
    voice: { engine: 'espeak-ng', engineVoiceId, languageCode: 'en-US' },
  };
}

/** Seconds from the start to the first sample louder than `threshold`, and from the last one to the end. */
function silenceAround(samples: Int16Array, rate: number, threshold = 100): { lead: number; trail: number } {
  let first = -1;
  let last = -1;
  for (let i = 0; i < samples.length; i++) {
    if (Math.abs(samples[i]) > threshold) {
      if (first < 0) first = i;
      last = i;
    }
  }
  return { lead: first / rate, trail: (samples.length - 1 - last) / rate };
}

/** Plain sentences of common words, the same on every run. */
function pseudoRandomText(characters: number): string {
  const words = [
    'river',
    'mountain',
    'quietly',
    'yellow',
    'window',
    'seven',
    'garden',
    'across',
    'morning',
    'paper',
    'the',
    'a',
    'walks',
    'under',
    'bright',
    'old',
    'friend',
    'reads',
    'slowly',
    'house',
  ];
  let seed = 42;
  const next = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % words.length;
  };
  const sentences: string[] = [];
  for (let length = 0; length < characters;) {
    const sentence = Array.from({ length: 6 + (next() % 8) }, next)
      .map((i) => words[i])
      .join(' ');
    sentences.push(`${sentence[0].toUpperCase()}${sentence.slice(1)}.`);
    length += sentence.length + 2;
  }
  return sentences.join(' ').slice(0, characters);
}

function longestQuietRun(samples: Int16Array, threshold = 100): number {
  let longest = 0;
  let run = 0;
  for (const sample of samples) {
    run = Math.abs(sample) > threshold ? 0 : run + 1;
    longest = Math.max(longest, run);
  }
  return longest;
}

const outputFiles = async (): Promise<string[]> => (await readdir(dir)).filter((name) => name.startsWith('out-'));

describe('runTtsTask with espeak-ng', () => {
  it('writes a 16-bit PCM WAV at each API sample rate and describes it in the result', async () => {
    for (const sampleRate of [16000, 22050, 24000, 32000, 44100, 48000]) {
      const { outcome, result, file, wav } = await synthesize(SENTENCE, { sampleRate });
      assert.equal(outcome.backend, 'espeak-ng');
      assert.deepEqual(
        {
          format: wav.info.format,
          bits: wav.info.bitsPerSample,
          channels: wav.info.channels,
          rate: wav.info.sampleRate,
        },
        { format: 'pcm', bits: 16, channels: 1, rate: sampleRate },
      );
      assert.equal(wav.info.dataBytes, file.length - 44, 'data size patched');
      assert.equal(file.readUInt32LE(4), file.length - 8, 'RIFF size patched');
      const { mediaType, outputFormat, audioChannels, durationSeconds, bytes, characters, chunks } = result;
      assert.deepEqual(
        {
          mediaType,
          outputFormat,
          sampleRate: result.sampleRate,
          audioChannels,
          durationSeconds,
          bytes,
          characters,
          chunks,
        },
        {
          mediaType: 'audio/wav',
          outputFormat: 'wav',
          sampleRate,
          audioChannels: 'mono',
          durationSeconds: Math.round((wav.info.frames / sampleRate) * 1000) / 1000,
          bytes: file.length,
          characters: SENTENCE.length,
          chunks: 1,
        },
      );
      assert.equal(result.bitrateKbps, null, 'wav has no bitrate');
      assert.match(String((result.ignoredOptions as Record<string, string>).bitrateKbps), /lossless/);
      assert.ok(
        (result.durationSeconds as number) > 2 && (result.durationSeconds as number) < 6,
        `${String(result.durationSeconds)} s`,
      );
    }
    assert.ok(
      (await readdir(dir)).every((name) => !name.endsWith('.partial')),
      'no partial file is left',
    );
  });

  it('writes the same signal to both channels in stereo, as long as mono', async () => {
    const mono = await synthesize(SENTENCE, { sampleRate: 22050 });
    const stereo = await synthesize(SENTENCE, { sampleRate: 22050, audioChannels: 'stereo' });
    assert.equal(stereo.wav.info.channels, 2);
    assert.equal(stereo.result.audioChannels, 'stereo');
    // espeak varies its output slightly from call to call, so the lengths agree only closely.
    assert.ok(Math.abs(stereo.wav.info.frames - mono.wav.info.frames) < mono.wav.info.frames * 0.01);
    const left = stereo.wav.samples.filter((_, i) => i % 2 === 0);
    const right = stereo.wav.samples.filter((_, i) => i % 2 === 1);
    assert.deepEqual(left, right);
  });

  it('speaks faster at speed 2 and slower at speed 0.5', async () => {
    const duration = async (speed: number) =>
      (await synthesize(SENTENCE, { speed, sampleRate: 16000 })).result.durationSeconds as number;
    const [slow, normal, fast] = [await duration(0.5), await duration(1), await duration(2)];
    assert.ok(fast < normal * 0.7, `speed 2: ${fast} s against ${normal} s`);
    assert.ok(slow > normal * 1.4, `speed 0.5: ${slow} s against ${normal} s`);
  });

  it('trims leading and trailing silence to a short margin when trimSilence is on', async () => {
    // espeak pauses before a quoted word and after trailing full stops.
    const text = '"Hello". . . .';
    const trimmed = await synthesize(text, { trimSilence: true });
    const kept = await synthesize(text, { trimSilence: false });
    const trimmedSilence = silenceAround(trimmed.wav.samples, 24000);
    const keptSilence = silenceAround(kept.wav.samples, 24000);
    assert.ok(trimmedSilence.lead <= 0.06, `sound starts at ${trimmedSilence.lead} s`);
    assert.ok(trimmedSilence.trail <= 0.06, `sound ends ${trimmedSilence.trail} s before the end`);
    assert.ok(
      keptSilence.lead > 0.1 && keptSilence.trail > 0.2,
      `espeak's own silence: ${JSON.stringify(keptSilence)}`,
    );
    assert.ok(kept.wav.info.frames - trimmed.wav.info.frames > 0.2 * 24000);
  });

  it('synthesizes long text in sentence chunks with progress that only rises', async () => {
    const text = Array.from({ length: 12 }, (_, i) => `This is sentence number ${i + 1} of a longer text.`).join(' ');
    const { result, progress } = await synthesize(text);
    assert.equal(result.chunks, 2);
    assert.equal(progress[0].phase, 'synthesizing');
    assert.ok(progress[0].value >= 0 && progress[0].value <= 10);
    assert.ok(
      progress.every((step, i) => i === 0 || step.value > progress[i - 1].value),
      JSON.stringify(progress),
    );
    assert.ok(progress.at(-1)!.value >= 90 && progress.at(-1)!.value < 100);
    assert.equal(progress.at(-1)!.phase, 'encoding');
    const single = await synthesize(text.slice(0, 200));
    assert.ok((result.durationSeconds as number) > (single.result.durationSeconds as number) * 1.5);
  });

  it('leaves a sentence pause between chunks, as espeak does between sentences', async () => {
    const firstSentence = `${'many small words follow one another '.repeat(11).trim()}.`;
    const { result, wav } = await synthesize(`${firstSentence} Second sentence.`, { sampleRate: 16000 });
    assert.equal(result.chunks, 2);
    const longestPause = longestQuietRun(wav.samples) / 16000;
    assert.ok(longestPause > 0.25 && longestPause < 0.5, `longest pause ${longestPause} s`);
  });

  it("keeps each job's voice and speed when two jobs share the engine process", async () => {
    const text = Array.from({ length: 20 }, (_, i) => `Sentence ${i + 1} is here to make several chunks.`).join('\n');
    const [slow, fast] = await Promise.all([
      synthesize(text, { speed: 0.5, sampleRate: 16000 }),
      synthesize(text, { speed: 2, sampleRate: 16000 }, 'roa/fr'),
    ]);
    assert.ok((slow.result.chunks as number) > 1);
    const slowAlone = await synthesize(text, { speed: 0.5, sampleRate: 16000 });
    const ratio = (slow.result.durationSeconds as number) / (slowAlone.result.durationSeconds as number);
    assert.ok(
      Math.abs(ratio - 1) < 0.05,
      `interleaved ${String(slow.result.durationSeconds)} s, alone ${String(slowAlone.result.durationSeconds)} s`,
    );
    assert.ok((fast.result.durationSeconds as number) < (slow.result.durationSeconds as number) / 2);
  });

  it('speaks markup characters as text instead of reading them as SSML', async () => {
    // Without preprocessPrompt, which would drop the HTML tags as markup.
    const plain = await synthesize('bold', { preprocessPrompt: false });
    const tagged = await synthesize('<b>bold</b> & co', { preprocessPrompt: false });
    assert.ok((tagged.result.durationSeconds as number) > (plain.result.durationSeconds as number) + 0.5);
  });

  it('fails with a UserFacingError for a voice espeak does not have, leaving no file behind', async () => {
    const before = await outputFiles();
    await assert.rejects(synthesize(SENTENCE, {}, 'gmw/no-such-voice'), (error: unknown) => {
      assert.ok(error instanceof UserFacingError);
      assert.match(error.message, /no-such-voice/);
      return true;
    });
    assert.deepEqual(await outputFiles(), before);
  });

  it('fails with a UserFacingError when the text yields no speech, leaving no file behind', async () => {
    const before = await outputFiles();
    for (const text of ['... ??? ,,, ;', '   \n  ']) {
      await assert.rejects(synthesize(text), (error: unknown) => {
        assert.ok(error instanceof UserFacingError);
        assert.match(error.message, /^The text produced no speech: /);
        return true;
      });
    }
    assert.deepEqual(await outputFiles(), before);
  });

  it('synthesizes 100 000 characters with bounded memory', async () => {
    const text = pseudoRandomText(100_000);
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const started = performance.now();
    const task = await taskFor(text, { speed: 2, sampleRate: 16000 }, 'gmw/en-US');
    const outcome = await runTtsTask(task, () => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    });
    const seconds = (performance.now() - started) / 1000;
    const growthMb = (rssPeak - rssBefore) / 2 ** 20;
    const audioSeconds = outcome.result.durationSeconds;
    console.log(
      `100k characters: ${audioSeconds.toFixed(0)} s of audio in ${seconds.toFixed(1)} s ` +
        `(real-time factor ${(seconds / audioSeconds).toFixed(4)}), ${outcome.result.chunks} chunks, RSS growth ${growthMb.toFixed(0)} MB`,
    );
    assert.equal(outcome.result.characters, 100_000);
    assert.ok(outcome.result.chunks >= 250);
    assert.ok(growthMb < 200, `RSS grew by ${growthMb} MB`);
    assert.equal((await stat(task.outputPath)).size, outcome.result.bytes);
    await rm(task.outputPath);
  });
});
