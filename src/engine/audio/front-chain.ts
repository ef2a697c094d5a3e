/**
 * The first-pass processing of synthesized speech on its way to the recording: pitch-preserving stretch
 * (for engines without a rate of their own), trimming of leading and trailing silence, and resampling to
 * the output rate. Synchronous apart from loading Sonic, so it runs as well in the DSP thread as here.
 */
import type { StreamingResampler } from '../../audio/resampler';
import { createFastResampler } from '../../audio/simd-resample-kernel';
import { concatSamples } from './samples';
import { SilenceTrimmer } from './silence-trimmer';
import { TimeStretcher } from './time-stretch';

export interface FrontChainOptions {
  inputRate: number;
  outputRate: number;
  /** Speed-up by time stretch (1 = none). */
  stretch: number;
  trimSilence: boolean;
}

export class FrontChain {
  private constructor(
    private readonly stretcher: TimeStretcher | undefined,
    private readonly trimmer: SilenceTrimmer | undefined,
    private readonly resampler: StreamingResampler,
  ) {}

  static async create(options: FrontChainOptions): Promise<FrontChain> {
    const stretcher =
      options.stretch !== 1 ? await TimeStretcher.create(options.inputRate, options.stretch) : undefined;
    const trimmer = options.trimSilence ? SilenceTrimmer.forSampleRate(options.inputRate) : undefined;
    return new FrontChain(stretcher, trimmer, createFastResampler(options.inputRate, options.outputRate));
  }

  /** Takes the engine's samples; returns the output-rate samples that are ready. */
  push(samples: Int16Array): Int16Array {
    let block = this.stretcher ? this.stretcher.process(samples) : samples;
    if (this.trimmer) block = this.trimmer.push(block);
    return block.length > 0 ? this.resampler.process(block) : block;
  }

  /** Ends the stream: whatever the stretcher, trimmer and resampler still hold. */
  finish(): Int16Array {
    let block = this.stretcher ? this.stretcher.flush() : new Int16Array(0);
    if (this.trimmer) block = concatSamples([this.trimmer.push(block), this.trimmer.finish()]);
    return concatSamples([block.length > 0 ? this.resampler.process(block) : block, this.resampler.flush()]);
  }

  release(): void {
    this.stretcher?.release();
  }
}
