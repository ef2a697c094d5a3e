/**
 * When a device would finish a job, from the speeds it measured (src/link/speeds.ts): the time left on the
 * jobs ahead of it plus this job's audio duration times the device's real-time factor for it. Pure, so the
 * routing rule can be tested without a relay.
 */
import type { SttOptions } from '../../contract/types';
import type { SpeedReport } from '../../link/speeds';
import type { JobRow } from '../data/jobs';
import { sttEstimateMilli } from './credits';

/** What routing knows of a job's size: the voice and text length for TTS, the media's estimated duration for STT. */
export type Work = { kind: 'tts'; voiceId: string; characters: number } | { kind: 'stt'; seconds: number };

/** A job waiting or running on a device, and how far it got (0–100). */
export interface AheadJob {
  work: Work;
  progress: number;
}

/** Speech runs at about 15 characters a second (some 160 words a minute), which is what TTS durations are estimated by. */
export const TTS_CHARACTERS_PER_SECOND = 15;

/** Seconds of audio the job makes (TTS) or reads (STT). */
export const mediaSeconds = (work: Work): number =>
  work.kind === 'tts' ? Math.max(1, work.characters) / TTS_CHARACTERS_PER_SECOND : work.seconds;

/** STT media's duration, estimated from the upload's size as the credit estimate is (the relay does not decode uploads). */
export const sttSeconds = (
  bytes: number,
  options: Partial<Pick<SttOptions, 'cropStartSeconds' | 'cropEndSeconds'>>,
): number => sttEstimateMilli(bytes, options) / 1000;

/** The work of a stored job. */
export function workOf(job: Pick<JobRow, 'kind' | 'request' | 'input_bytes'> & { characters: number }): Work {
  if (job.kind === 'tts')
    return {
      kind: 'tts',
      voiceId: String((job.request.voiceId as string | undefined) ?? '').toLowerCase(),
      characters: job.characters,
    };
  const options = (job.request as { options?: SttOptions }).options ?? {};
  return { kind: 'stt', seconds: sttSeconds(job.input_bytes, options) };
}

const median = (values: readonly number[]): number | undefined => {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** The engine of each voice some device measured: a voice id means one engine everywhere (src/voices/voice-id.ts). */
export function voiceEngines(reports: Iterable<readonly SpeedReport[]>): Map<string, string> {
  const engines = new Map<string, string>();
  for (const list of reports) for (const r of list) if (r.kind === 'tts') engines.set(r.model, r.engine);
  return engines;
}

/**
 * The device's real-time factor for a job, from the closest figure it has. TTS: the voice's own; else the
 * median of its voices of the same engine; else of all its TTS. STT: the whisper model it measured most
 * often, the one it is set to use (the relay does not know which model a device picks for a language).
 */
export function realTimeFactorFor(
  speeds: readonly SpeedReport[],
  work: Work,
  engines: ReadonlyMap<string, string>,
): number | undefined {
  if (work.kind === 'stt') {
    const stt = speeds.filter((s) => s.kind === 'stt').sort((a, b) => b.samples - a.samples);
    return stt[0]?.realTimeFactor;
  }
  const tts = speeds.filter((s) => s.kind === 'tts');
  const own = tts.find((s) => s.model === work.voiceId);
  if (own) return own.realTimeFactor;
  const engine = engines.get(work.voiceId);
  const sameEngine = engine === undefined ? [] : tts.filter((s) => s.engine === engine);
  return median((sameEngine.length > 0 ? sameEngine : tts).map((s) => s.realTimeFactor));
}

/**
 * Seconds until the device has finished the jobs ahead. A job ahead of a kind it never measured counts at
 * `fallbackFactor`; without one the answer is undefined.
 */
export function busySeconds(
  speeds: readonly SpeedReport[],
  ahead: readonly AheadJob[],
  engines: ReadonlyMap<string, string>,
  fallbackFactor?: number,
): number | undefined {
  let total = 0;
  for (const job of ahead) {
    const factor = realTimeFactorFor(speeds, job.work, engines) ?? fallbackFactor;
    if (factor === undefined) return undefined;
    const left = 1 - Math.min(100, Math.max(0, job.progress)) / 100;
    total += mediaSeconds(job.work) * factor * left;
  }
  return total;
}

/** Seconds from now until the device would have finished `work` behind its queue; undefined when it has no figure for it. */
export function estimatedFinish(
  speeds: readonly SpeedReport[],
  ahead: readonly AheadJob[],
  work: Work,
  engines: ReadonlyMap<string, string>,
): number | undefined {
  const factor = realTimeFactorFor(speeds, work, engines);
  if (factor === undefined) return undefined;
  return (busySeconds(speeds, ahead, engines, factor) ?? 0) + mediaSeconds(work) * factor;
}
