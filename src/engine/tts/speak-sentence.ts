/**
 * Read Aloud's engine task: one sentence spoken at once and handed back as samples, with espeak-ng's own
 * word times. The engine of the last voice stays open between sentences, so a neural model loads once per
 * reading, not once per sentence.
 */
import { performance } from 'node:perf_hooks';
import { lexiconForEngine } from '../../lexicon/engine-lexicon';
import { concatSamples } from '../audio/samples';
import { TimeStretcher } from '../audio/time-stretch';
import {
  UserFacingError,
  type SpeakTask,
  type SpokenSentence,
  type SpokenWord,
  type TaskOutcome,
} from '../../engine-api/protocol';
import { openSpeechEngine } from './speech-engine';
import { espeakRateForSpeed, openEspeakVoice } from './synthesizers/espeak';
import type { OpenedEngine } from './synthesizers/synthesizer';

/** The request defaults of the options Read Aloud does not set (openapi-schemas.ts). */
const DEFAULT_STEPS = 32;
const DEFAULT_GUIDANCE = 2;

let open: { key: string; engine: Promise<OpenedEngine> } | undefined;

function engineFor(task: SpeakTask): Promise<OpenedEngine> {
  const key = JSON.stringify([task.voice, task.speed]);
  if (open?.key !== key) {
    void open?.engine.then(
      (opened) => opened.engine.dispose?.(),
      () => undefined,
    );
    const engine = openSpeechEngine(task.voice, {
      speed: task.speed,
      language: 'auto',
      steps: DEFAULT_STEPS,
      guidanceScale: DEFAULT_GUIDANCE,
    });
    open = { key, engine };
    engine.catch(() => (open = open?.engine === engine ? undefined : open));
  }
  return open.engine;
}

export async function speakSentence(task: SpeakTask): Promise<TaskOutcome<SpokenSentence>> {
  const began = performance.now();
  if (task.ssml) return speakPart({ ...task, ssml: task.ssml }, began);
  const lexicon = lexiconForEngine(task.lexicon, task.voice.languageCode, task.voice.engine);
  const text = lexicon.apply(task.text);
  let firstSamplesMs = 0;
  const noteFirst = (): void => {
    firstSamplesMs ||= performance.now() - began;
  };
  let samples: Int16Array;
  let sampleRate: number;
  let words: SpokenWord[] | null = null;
  let backend: string;
  if (task.voice.engine === 'espeak-ng') {
    const voice = await openEspeakVoice(task.voice.engineVoiceId, espeakRateForSpeed(task.speed));
    const spoken = voice.synthesizeWords(text);
    noteFirst();
    samples = concatSamples(spoken.samples);
    sampleRate = voice.sampleRate;
    backend = 'espeak-ng';
    // Word positions are positions in what espeak was given: they are the task's only when no entry changed it.
    if (text === task.text) words = locateWords(task.text, spoken.words);
  } else {
    const { engine } = await engineFor(task);
    backend = engine.backend;
    sampleRate = engine.sampleRate;
    const blocks: Int16Array[] = [];
    if (engine.stream) {
      await engine.stream(text, (block) => {
        noteFirst();
        blocks.push(block);
      });
    } else {
      blocks.push(await engine.synthesize(text));
      noteFirst();
    }
    samples = concatSamples(blocks);
    if (!engine.nativeSpeed && task.speed !== 1) samples = await stretch(samples, sampleRate, task.speed);
  }
  if (samples.length === 0)
    throw new UserFacingError(`The sentence produced no speech: ${backend} found nothing it could pronounce in it.`);
  const pcm = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).toString('base64');
  return {
    backend,
    result: {
      sampleRate,
      pcm,
      durationSeconds: samples.length / sampleRate,
      words,
      firstSamplesMs,
      synthesisMs: performance.now() - began,
    },
  };
}

/** An SSML part (speak-ssml.ts): its samples at once, a "word" per step, and what the engines did not honour. */
async function speakPart(
  task: SpeakTask & { ssml: NonNullable<SpeakTask['ssml']> },
  began: number,
): Promise<TaskOutcome<SpokenSentence>> {
  const { speakSsmlPart } = await import('./speak-ssml');
  const part = await speakSsmlPart(task);
  const { samples, sampleRate, backend } = part;
  if (samples.length === 0)
    throw new UserFacingError(`The SSML produced no speech: ${backend} found nothing it could pronounce in it.`);
  const pcm = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).toString('base64');
  const synthesisMs = performance.now() - began;
  return {
    backend,
    result: {
      sampleRate,
      pcm,
      durationSeconds: samples.length / sampleRate,
      words: part.words,
      firstSamplesMs: synthesisMs,
      synthesisMs,
      ignored: part.ignored,
    },
  };
}

/** espeak's words found in order in the text, so each has the offsets of the text the editor highlights. */
function locateWords(text: string, words: readonly { text: string; startSeconds: number }[]): SpokenWord[] {
  const located: SpokenWord[] = [];
  let from = 0;
  for (const word of words) {
    const at = text.indexOf(word.text, from);
    if (at < 0 || word.text === '') continue;
    located.push({ start: at, end: at + word.text.length, startSeconds: word.startSeconds });
    from = at + word.text.length;
  }
  return located;
}

async function stretch(samples: Int16Array, sampleRate: number, speed: number): Promise<Int16Array> {
  const stretcher = await TimeStretcher.create(sampleRate, speed);
  try {
    return concatSamples([stretcher.process(samples), stretcher.flush()]);
  } finally {
    stretcher.release();
  }
}
