/**
 * Live synthesis of plain text: each text chunk goes through both passes (front, then render) on its own
 * and is appended to the output at once, so the output file grows while the engine still speaks and a
 * reader can stream it. Loudness is set once, from the first audible chunk, and the peak limiter guards
 * every later chunk: a whole-text measurement would mean waiting for the whole text.
 */
import type { AudioSink } from '../audio/audio-sink';
import { CHUNK_PAUSE_SECONDS, recordText } from './record-text';
import { normalizationGainDb, renderRecording } from './render';
import { startSpeechFront, type FrontSettings } from './speech-front';
import type { SpeechEngine } from './synthesizers/synthesizer';
import { splitIntoChunks } from './text-chunks';

/** The first chunk is kept short: the first audio leaves as soon as it is spoken. */
export const FIRST_LIVE_CHUNK_CHARS = 100;

/** Later chunks are processed a few at a time: each group costs a front and a render pass of its own. */
export const LIVE_GROUP_CHARS = 1200;

/** The text in chunks for live synthesis: a short first one (a sentence when one fits), then the usual. */
export function liveChunks(text: string): string[] {
  const first = splitIntoChunks(text, FIRST_LIVE_CHUNK_CHARS)[0];
  if (first === undefined) return [];
  const end = text.indexOf(first) + first.length;
  return [first, ...splitIntoChunks(text.slice(end))];
}

/** The chunks in the groups that are spoken and appended together: the first alone, then up to LIVE_GROUP_CHARS each. */
export function liveGroups(chunks: readonly string[]): string[][] {
  const groups: string[][] = [];
  let size = 0;
  for (const [index, chunk] of chunks.entries()) {
    const current = groups.at(-1);
    if (index > 1 && current && size + chunk.length <= LIVE_GROUP_CHARS) {
      current.push(chunk);
      size += chunk.length;
    } else {
      groups.push([chunk]);
      size = chunk.length;
    }
  }
  return groups;
}

export interface LiveTextOptions {
  front: Omit<FrontSettings, 'inputRate'>;
  speed: number;
  /** Loudness normalization and peak limiting (the request's postprocessOutput). */
  normalize: boolean;
  /** Characters done so far, after each chunk. */
  onChunk(doneCharacters: number): void;
}

export interface LiveTextSummary {
  heardSpeech: boolean;
  /** The loudness the gain was set from (the first audible chunk), null for silence. */
  measuredLufs: number | null;
  gainDb: number;
}

export async function speakTextLive(
  chunks: readonly string[],
  engine: SpeechEngine,
  sink: AudioSink,
  options: LiveTextOptions,
): Promise<LiveTextSummary> {
  const rate = options.front.outputRate;
  // The front trims each chunk's edges, so the pause between chunks is written here, at the output rate.
  const pause = new Int16Array(Math.round((rate * CHUNK_PAUSE_SECONDS) / options.speed));
  let gainDb: number | undefined;
  let measuredLufs: number | null = null;
  let heardSpeech = false;
  let done = 0;
  for (const group of liveGroups(chunks)) {
    const front = await startSpeechFront({ ...options.front, inputRate: engine.sampleRate });
    const before = done;
    try {
      await recordText(group, engine, front, {
        speed: options.speed,
        onChunk: (characters) => options.onChunk(before + characters),
      });
    } catch (error) {
      await front.abort();
      throw error;
    }
    const recording = await front.finish();
    if (recording.heardSpeech) {
      if (gainDb === undefined && recording.lufs !== null) {
        measuredLufs = recording.lufs;
        gainDb = normalizationGainDb(recording.lufs);
      }
      if (heardSpeech) await sink.write(pause);
      heardSpeech = true;
      const gain = options.normalize ? 10 ** ((gainDb ?? 0) / 20) : null;
      await renderRecording(recording, sink, { stretch: 1, gain }, () => undefined);
    }
    done += group.reduce((sum, chunk) => sum + chunk.length, 0);
    options.onChunk(done);
  }
  return { heardSpeech, measuredLufs, gainDb: gainDb ?? 0 };
}
