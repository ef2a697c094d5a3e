/**
 * The second pass of a job: the recording (already at the output rate, trimmed and denoised) is read back
 * and, in order, stretched to the `duration` target, brought to the loudness target with a peak limiter and
 * written to the output format. Everything streams in blocks.
 */
import type { AudioSink } from '../audio/audio-sink';
import { PeakLimiter } from '../audio/peak-limiter';
import { SampleSpool } from '../audio/sample-spool';
import { roundToInt16 } from '../audio/samples';
import { TimeStretcher } from '../audio/time-stretch';
import type { RecordingSummary } from './speech-recorder';

/** Loudness normalization: a common target for spoken word, with headroom for lossy encoders. */
export const TARGET_LUFS = -16;
export const PEAK_CEILING_DBFS = -1;
/** Gain is never raised more than this: very quiet input is more likely noise than a whisper. */
const MAX_GAIN_DB = 30;

export interface RenderPlan {
  /** Speed-up for the duration target (1 = none), and the exact number of samples it must produce. */
  stretch: number;
  targetSamples?: number;
  /** Linear gain before the limiter; null when post-processing is off (no gain, no limiter). */
  gain: number | null;
}

/** The gain in dB that brings `measuredLufs` to the target (0 for silence). */
export function normalizationGainDb(measuredLufs: number | null): number {
  if (measuredLufs === null || !Number.isFinite(measuredLufs)) return 0;
  return Math.min(MAX_GAIN_DB, TARGET_LUFS - measuredLufs);
}

/** Cuts or pads a stream to exactly `target` samples. */
class LengthFitter {
  private written = 0;

  constructor(private readonly target: number | undefined) {}

  /** How many of `count` samples of silence fit. */
  takeCount(count: number): number {
    if (this.target === undefined) return count;
    const kept = Math.min(count, Math.max(0, this.target - this.written));
    this.written += kept;
    return kept;
  }

  take(samples: Int16Array): Int16Array {
    if (this.target === undefined) return samples;
    const room = Math.max(0, this.target - this.written);
    const kept = samples.length > room ? samples.subarray(0, room) : samples;
    this.written += kept.length;
    return kept;
  }

  padding(): Int16Array {
    if (this.target === undefined || this.written >= this.target) return new Int16Array(0);
    const pad = new Int16Array(this.target - this.written);
    this.written = this.target;
    return pad;
  }
}

export async function renderRecording(
  recording: RecordingSummary,
  sink: AudioSink,
  plan: RenderPlan,
  onProgress: (fraction: number) => void,
): Promise<void> {
  const rate = recording.sampleRate;
  const spool = await SampleSpool.open(recording.path, rate);
  const stretcher = plan.stretch !== 1 ? await TimeStretcher.create(rate, plan.stretch) : undefined;
  const fitter = new LengthFitter(plan.targetSamples);
  // Time stretching can move peaks a little; without it, a gain that keeps the loudest sample under the
  // ceiling needs no limiter at all (the common case for speech at -16 LUFS).
  const ceiling = 10 ** (PEAK_CEILING_DBFS / 20);
  const plainGain =
    plan.gain !== null && plan.stretch === 1 && recording.peak * plan.gain <= ceiling ? plan.gain : null;
  const limiter =
    plan.gain !== null && plainGain === null
      ? new PeakLimiter({ sampleRate: rate, gain: plan.gain, ceilingDbfs: PEAK_CEILING_DBFS })
      : undefined;

  const afterStretch = async (samples: Int16Array, last: boolean): Promise<void> => {
    let block = fitter.take(samples);
    if (last) block = concat(block, fitter.padding());
    if (limiter) block = last ? concat(limiter.process(block), limiter.flush()) : limiter.process(block);
    // Long pauses of a narration (cues far apart) are mostly silent blocks: no gain to apply, nothing to write.
    if (isSilent(block)) return sink.writeSilence(block.length);
    if (plainGain !== null && plainGain !== 1) block = scale(block, plainGain);
    await sink.write(block);
  };

  try {
    let done = 0;
    // The recording's long silences are skipped unread. Each follows a moment of real silence (see
    // SpeechRecorder.padTo), so the limiter holds only zeros and has recovered by then: writing the run ahead
    // of what it holds changes nothing. A time stretch has no such state to skip over; it reads everything.
    for await (const part of spool.readParts(stretcher ? [] : recording.silentRuns)) {
      if (typeof part === 'number') await sink.writeSilence(fitter.takeCount(part));
      else await afterStretch(stretcher ? stretcher.process(part) : part, false);
      done += typeof part === 'number' ? part : part.length;
      onProgress(recording.length > 0 ? done / recording.length : 1);
    }
    await afterStretch(stretcher ? stretcher.flush() : new Int16Array(0), true);
  } finally {
    stretcher?.release();
    await spool.close();
  }
}

function isSilent(samples: Int16Array): boolean {
  for (let i = 0; i < samples.length; i++) if (samples[i] !== 0) return false;
  return true;
}

function scale(samples: Int16Array, gain: number): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = roundToInt16(samples[i] * gain);
  return out;
}

function concat(a: Int16Array, b: Int16Array): Int16Array {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out = new Int16Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
