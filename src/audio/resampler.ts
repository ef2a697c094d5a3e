/**
 * A streaming polyphase resampler for 16-bit mono audio: Kaiser-windowed sinc interpolation at the
 * exact rational ratio of the two rates (polyphase-filter.ts). It keeps the input it still needs between
 * calls, so audio fed in pieces comes out exactly as if it had been fed at once (no clicks at the seams).
 * The multiply-adds run in a kernel: plain JavaScript by default, WebAssembly SIMD in the engine
 * (createFastResampler in simd-resample-kernel.ts).
 */
import { designPolyphaseFilter, type PolyphaseFilter } from './polyphase-filter';
import { ScalarResampleKernel, type ResampleKernel } from './resample-kernel';

export class StreamingResampler {
  private readonly filter: PolyphaseFilter;
  private readonly kernel: ResampleKernel;
  /** Absolute input index of the kernel's first held sample, and of the next output's first tap. */
  private heldStart: number;
  private nextFirst: number;
  /** The next output's step in the cycle of `upFactor` outputs. */
  private step = 0;
  private inputCount = 0;
  private outputCount = 0;

  constructor(
    readonly inputRate: number,
    readonly outputRate: number,
    makeKernel: (filter: PolyphaseFilter) => ResampleKernel = (filter) => new ScalarResampleKernel(filter),
  ) {
    this.filter = designPolyphaseFilter(inputRate, outputRate);
    this.kernel = makeKernel(this.filter);
    // Silence before the start, so the first outputs have the history their taps reach back to.
    this.kernel.appendSilence(this.filter.tapsBefore);
    this.heldStart = -this.filter.tapsBefore;
    this.nextFirst = -this.filter.tapsBefore;
  }

  get isPassThrough(): boolean {
    return this.filter.upFactor === this.filter.downFactor;
  }

  /** Takes the next input samples; returns every output sample that can be computed so far. */
  process(input: Int16Array): Int16Array {
    if (this.isPassThrough) return input.slice();
    this.inputCount += input.length;
    this.kernel.append(input);
    return this.produce(Number.POSITIVE_INFINITY);
  }

  /** Ends the stream: returns the outputs that need the (silent) samples after the end. */
  flush(): Int16Array {
    if (this.isPassThrough) return new Int16Array(0);
    this.kernel.appendSilence(this.filter.taps);
    // The output spans exactly the input's duration: ceil(inputs × up / down) samples in all.
    const totalOutputs = Math.ceil((this.inputCount * this.filter.upFactor) / this.filter.downFactor);
    return this.produce(totalOutputs - this.outputCount);
  }

  private produce(limit: number): Int16Array {
    const { taps, advance, upFactor } = this.filter;
    const available = this.heldStart + this.kernel.length;
    // Count the outputs whose taps all lie in what is held, stepping through the cycle as the kernel will.
    let count = 0;
    let first = this.nextFirst;
    let step = this.step;
    while (count < limit && first + taps <= available) {
      first += advance[step];
      if (++step === upFactor) step = 0;
      count++;
    }
    const out = count > 0 ? this.kernel.run(count, this.nextFirst - this.heldStart, this.step) : new Int16Array(0);
    this.nextFirst = first;
    this.step = step;
    this.outputCount += count;
    // Keep only what later outputs can still reach.
    const keepFrom = Math.min(first, available) - this.heldStart;
    if (keepFrom > 0) {
      this.kernel.discard(keepFrom);
      this.heldStart += keepFrom;
    }
    return out;
  }
}
