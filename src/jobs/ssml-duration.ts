/**
 * How much audio an SSML plan asks for beyond its words: its pauses and its `<audio>` files, counted before
 * any synthesis so that admission can refuse a document that would make hours of audio from a few kilobytes
 * (100 000 characters of `<audio>` repeats asked for hundreds of hours). A WAV file's length is read from its
 * header; any other file counts as long as it would last at 32 kbit/s, more than any speech codec needs, so
 * the estimate never falls short.
 */
import { open, stat } from 'node:fs/promises';
import { readWavInfo } from '../audio/wav-reader';
import type { SsmlPlan } from '../text/ssml/ssml-plan';

const LOWEST_BYTES_PER_SECOND = 32_000 / 8;
const WAV_HEADER_BYTES = 4096;

/** Seconds of pauses and inserted audio in the plan; `files` maps each `<audio src>` to the file it plays. */
export async function plannedExtraSeconds(plan: SsmlPlan, files: Readonly<Record<string, string>>): Promise<number> {
  const lengths = new Map<string, number>();
  let seconds = 0;
  for (const step of plan.steps) {
    if (step.kind === 'pause') seconds += step.seconds;
    if (step.kind !== 'audio') continue;
    const file = files[step.src];
    if (file === undefined) continue;
    if (!lengths.has(file)) lengths.set(file, await fileSeconds(file));
    seconds += lengths.get(file)!;
  }
  return seconds;
}

async function fileSeconds(file: string): Promise<number> {
  const { size } = await stat(file);
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(WAV_HEADER_BYTES), 0, WAV_HEADER_BYTES, 0);
    const info = readWavInfo(buffer.subarray(0, bytesRead));
    const frameBytes = info.channels * Math.ceil(info.bitsPerSample / 8);
    if (info.sampleRate > 0 && frameBytes > 0) return Math.min(info.dataBytes, size) / frameBytes / info.sampleRate;
  } catch {
    // Not a WAV file (or one whose header is not in its first kilobytes): counted by its size below.
  } finally {
    await handle.close();
  }
  return size / LOWEST_BYTES_PER_SECOND;
}
