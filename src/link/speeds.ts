/**
 * How fast a device runs each engine and model, as it measured itself (src/device/speed-meter.ts) and
 * reports over the link; the relay routes by it (src/relay/dispatch/finish-estimate.ts).
 */

/** One measured speed: `realTimeFactor` = processing time / audio duration (0.1 = ten times faster than real time). */
export interface SpeedReport {
  kind: 'tts' | 'stt';
  /** The engine, e.g. `espeak-ng`, `piper`, `whisper`. */
  engine: string;
  /** TTS: the voice id; STT: the whisper model's file name. */
  model: string;
  realTimeFactor: number;
  /** Jobs (and calibration runs) the figure is the median of. */
  samples: number;
}

/** More than any device has engines times models; a bound on what one message may make the relay store. */
export const MAX_SPEED_REPORTS = 200;

const isName = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= 200 && !value.includes('\u0000');

/**
 * Reads the speeds a device sent; undefined when absent or of the wrong shape (the relay then keeps what it
 * had: a link is never closed over a measurement).
 */
export function parseSpeeds(value: unknown): SpeedReport[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_SPEED_REPORTS) return undefined;
  const ok = value.every(
    (item: Partial<SpeedReport> | null) =>
      item !== null &&
      typeof item === 'object' &&
      (item.kind === 'tts' || item.kind === 'stt') &&
      isName(item.engine) &&
      isName(item.model) &&
      typeof item.realTimeFactor === 'number' &&
      Number.isFinite(item.realTimeFactor) &&
      item.realTimeFactor > 0 &&
      item.realTimeFactor < 1000 &&
      Number.isInteger(item.samples) &&
      (item.samples as number) > 0,
  );
  if (!ok) return undefined;
  return (value as SpeedReport[]).map(({ kind, engine, model, realTimeFactor, samples }) => ({
    kind,
    engine,
    model,
    realTimeFactor,
    samples,
  }));
}
