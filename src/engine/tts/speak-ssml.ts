/**
 * Read Aloud's SSML part: steps of an SSML plan spoken by the same recorder as an SSML job (record-ssml.ts),
 * into memory instead of a file, with the time each step starts (the editor highlights the step's markup
 * then) and what the engines could not honour.
 */
import { lexiconForEngine } from '../../lexicon/engine-lexicon';
import { parseSsml } from '../../text/ssml/parse-ssml';
import { partText } from '../../text/ssml/ssml-reading';
import { concatSamples } from '../audio/samples';
import { mediaToolchain } from '../media/media-toolchain';
import type { SpeakTask, SpokenWord } from '../../engine-api/protocol';
import { recordSsml, type SsmlRecording } from './record-ssml';
import { ssmlEngines, type SsmlEngines } from './ssml-engines';

/** Parts are spoken at one rate whatever voices they mix; the player takes any rate. */
const PART_SAMPLE_RATE = 24_000;
const DEFAULT_STEPS = 32;
const DEFAULT_GUIDANCE = 2;

/** The engines of the last reading's voices stay open between parts, so a neural model loads once. */
let open: { key: string; engines: SsmlEngines } | undefined;

function enginesFor(task: SpeakTask & { ssml: NonNullable<SpeakTask['ssml']> }): SsmlEngines {
  const key = JSON.stringify([task.voice, task.ssml.markup]);
  if (open?.key !== key) {
    open?.engines.dispose();
    const settings = { speed: task.speed, language: 'auto', steps: DEFAULT_STEPS, guidanceScale: DEFAULT_GUIDANCE };
    open = { key, engines: ssmlEngines({ voice: task.voice, ssml: task.ssml.markup }, settings, mediaToolchain()) };
  }
  return open.engines;
}

class MemoryRecording implements SsmlRecording {
  private readonly pieces: Int16Array[] = [];
  length = 0;
  constructor(readonly sampleRate: number) {}
  async write(samples: Int16Array): Promise<void> {
    this.pieces.push(samples.slice());
    this.length += samples.length;
  }
  async padTo(position: number): Promise<void> {
    if (position > this.length) await this.write(new Int16Array(position - this.length));
  }
  samples(): Int16Array {
    return concatSamples(this.pieces);
  }
}

export interface SpokenPart {
  samples: Int16Array;
  sampleRate: number;
  /** When each step that sounded starts, at its span of the part's text. */
  words: SpokenWord[];
  ignored: Record<string, string>;
  backend: string;
}

export async function speakSsmlPart(task: SpeakTask & { ssml: NonNullable<SpeakTask['ssml']> }): Promise<SpokenPart> {
  const { source, from, to } = task.ssml;
  const plan = parseSsml(source, task.voice.languageCode);
  const steps = plan.steps.slice(from, to);
  const lexicon = lexiconForEngine(task.lexicon, task.voice.languageCode, task.voice.engine);
  const engines = enginesFor(task);
  const recording = new MemoryRecording(PART_SAMPLE_RATE);
  const startsAt = new Map<number, number>();
  let backend: string = task.voice.engine;
  const ignored = await recordSsml({ ...plan, steps }, recording, {
    speed: task.speed,
    language: 'auto',
    engineFor: async (style, speed) => {
      const engine = await engines.engineFor(style, speed);
      backend = engine.backend;
      return engine;
    },
    prepare: (text) => lexicon.apply(text),
    audio: (src, rate) => engines.audio(src, rate),
    onStep: () => undefined,
    onSound: (index, at) => startsAt.set(index, at),
  });
  const { spans } = partText(steps);
  const words = spans
    .filter((span) => startsAt.has(span.step))
    .map((span) => ({ start: span.start, end: span.end, startSeconds: startsAt.get(span.step)! / PART_SAMPLE_RATE }));
  return {
    samples: recording.samples(),
    sampleRate: PART_SAMPLE_RATE,
    words,
    ignored: { ...ignored, ...engines.ignored },
    backend,
  };
}
