/**
 * The streaming path from a synthesizer's mono samples to a WAV file:
 * optional silence trimming (at the source rate) → resampling → channel layout → WAV.
 */
import { StreamingResampler } from './resampler';
import { SilenceTrimmer } from './silence-trimmer';
import { WavWriter, type WavSummary } from './wav-writer';

export interface PcmToWavOptions {
  inputRate: number;
  outputRate: number;
  channels: 1 | 2;
  trimSilence: boolean;
}

export class PcmToWav {
  private constructor(
    private readonly writer: WavWriter,
    private readonly resampler: StreamingResampler,
    private readonly trimmer: SilenceTrimmer | undefined,
  ) {}

  static async create(path: string, options: PcmToWavOptions): Promise<PcmToWav> {
    const resampler = new StreamingResampler(options.inputRate, options.outputRate);
    const trimmer = options.trimSilence ? SilenceTrimmer.forSampleRate(options.inputRate) : undefined;
    const writer = await WavWriter.create(path, { sampleRate: options.outputRate, channels: options.channels });
    return new PcmToWav(writer, resampler, trimmer);
  }

  async write(samples: Int16Array): Promise<void> {
    const kept = this.trimmer ? this.trimmer.push(samples) : samples;
    if (kept.length > 0) await this.writer.write(this.resampler.process(kept));
  }

  /** Writes what the trimmer and the resampler still hold, and completes the file. */
  async finish(): Promise<WavSummary> {
    if (this.trimmer) await this.writer.write(this.resampler.process(this.trimmer.finish()));
    await this.writer.write(this.resampler.flush());
    return this.writer.close();
  }

  abort(): Promise<void> {
    return this.writer.abort();
  }
}
