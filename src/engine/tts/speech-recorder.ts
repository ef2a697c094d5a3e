/**
 * The first pass of a job: speech at the output rate goes to a temporary file, denoised on the way when
 * asked (against the noise floor measured so far) and measured for the second pass: loudness for
 * normalization, sample peak, and whether anything was audible at all.
 */
import { Denoiser, NoiseFloorMeter } from '../audio/denoise';
import { LoudnessMeter } from '../audio/loudness';
import { SampleSpool, type SilentRun } from '../audio/sample-spool';
import { firstAudibleIndex } from '../audio/silence-trimmer';

/** What the second pass needs to know about a finished recording. */
export interface RecordingSummary {
  path: string;
  sampleRate: number;
  /** Samples in the file. */
  length: number;
  /** Integrated loudness in LUFS; null for silence. */
  lufs: number | null;
  /** The highest sample magnitude, 0 to 1 of full scale. */
  peak: number;
  heardSpeech: boolean;
  /** Long silences that padTo counted instead of writing (holes in the file), for the second pass to skip. */
  silentRuns: readonly SilentRun[];
}

/** Long enough for the denoiser's and the loudness meter's filters to die away (their slowest: ~10 ms). */
const SETTLE_SECONDS = 0.2;

export class SpeechRecorder {
  private readonly loudness: LoudnessMeter;
  private readonly noiseFloor: NoiseFloorMeter | undefined;
  private readonly denoiser: Denoiser | undefined;
  private heardSpeech = false;

  private constructor(
    readonly spool: SampleSpool,
    denoise: boolean,
  ) {
    this.loudness = new LoudnessMeter(spool.sampleRate);
    if (denoise) {
      this.noiseFloor = new NoiseFloorMeter(spool.sampleRate);
      this.denoiser = new Denoiser(spool.sampleRate, -Infinity);
    }
  }

  static async create(path: string, sampleRate: number, options: { denoise: boolean }): Promise<SpeechRecorder> {
    return new SpeechRecorder(await SampleSpool.create(path, sampleRate), options.denoise);
  }

  get sampleRate(): number {
    return this.spool.sampleRate;
  }

  /** Samples recorded so far. */
  get length(): number {
    return this.spool.length;
  }

  async write(samples: Int16Array): Promise<void> {
    if (samples.length === 0) return;
    let out = samples;
    if (this.denoiser && this.noiseFloor) {
      this.noiseFloor.push(samples);
      if (this.noiseFloor.pausesAreDigitalSilence()) {
        // Nothing to reduce: the samples stay as the voice made them (and the filters at rest, should noise come).
        this.denoiser.setFloor(-Infinity);
        this.denoiser.rest();
      } else {
        this.denoiser.setFloor(this.noiseFloor.floorDb());
        out = this.denoiser.process(samples);
      }
    }
    this.heardSpeech ||= firstAudibleIndex(out) >= 0;
    this.loudness.push(out);
    await this.spool.write(out);
  }

  /**
   * Silence up to sample `position` (nothing when the recording is already past it). Only its first moment
   * runs through the filters, whose tails after speech are real samples; the rest is counted by the meters
   * and skipped in the spool (a hole in the file), so a cue hours away costs neither time nor disk.
   */
  async padTo(position: number): Promise<void> {
    const missing = Math.round(position) - this.spool.length;
    if (missing <= 0) return;
    const settle = Math.min(missing, Math.round(this.sampleRate * SETTLE_SECONDS));
    await this.write(new Int16Array(settle));
    const rest = missing - settle;
    if (rest === 0) return;
    if (this.noiseFloor && this.denoiser) {
      this.noiseFloor.pushSilence(rest);
      this.denoiser.setFloor(this.noiseFloor.floorDb());
      this.denoiser.rest();
    }
    this.loudness.pushSilence(rest);
    this.spool.writeSilence(rest);
  }

  /** Stops recording; the file stays for the second pass (SampleSpool.open). */
  async finish(): Promise<RecordingSummary> {
    const lufs = this.loudness.integratedLufs();
    await this.spool.close();
    return {
      path: this.spool.path,
      sampleRate: this.sampleRate,
      length: this.spool.length,
      lufs: Number.isFinite(lufs) ? lufs : null,
      peak: 10 ** (this.loudness.samplePeakDbfs / 20),
      heardSpeech: this.heardSpeech,
      silentRuns: [...this.spool.silentRuns],
    };
  }

  dispose(): Promise<void> {
    return this.spool.dispose();
  }
}
