/**
 * Pitch-preserving time stretch of 16-bit mono speech with Sonic (WebAssembly), as a stream: speech fed in
 * pieces comes out `speed` times shorter, with the voice's pitch unchanged. Used for voices without a rate
 * of their own, for the `duration` target and for subtitle cues that must fit their slot.
 */
import type { SonicModule } from '@echogarden/sonic-wasm';
import { concatSamples } from './samples';

/** The speed factors Sonic is asked for; the API's own limits are narrower (0.5–2, or 0.25–4 combined). */
const MIN_FACTOR = 0.1;
const MAX_FACTOR = 10;
/** Frames passed to and from the WebAssembly heap at a time. */
const BLOCK = 16_384;

let modulePromise: Promise<SonicModule> | undefined;

function loadSonic(): Promise<SonicModule> {
  if (!modulePromise) {
    modulePromise = import('@echogarden/sonic-wasm').then(({ default: init }) => init());
    modulePromise.catch(() => {
      modulePromise = undefined;
    });
  }
  return modulePromise;
}

export class TimeStretcher {
  private released = false;

  private constructor(
    private readonly sonic: SonicModule,
    private readonly stream: number,
    private readonly buffer: number,
    readonly speed: number,
  ) {}

  /** A stretcher for mono audio at `sampleRate` that makes it `speed` times faster (2 = half as long). */
  static async create(sampleRate: number, speed: number): Promise<TimeStretcher> {
    if (!Number.isFinite(speed) || speed < MIN_FACTOR || speed > MAX_FACTOR) {
      throw new TypeError(`Expected a speed from ${MIN_FACTOR} to ${MAX_FACTOR}, got ${speed}`);
    }
    if (!Number.isInteger(sampleRate) || sampleRate <= 0)
      throw new TypeError(`Expected a positive integer sampleRate, got ${sampleRate}`);
    const sonic = await loadSonic();
    const stream = sonic._sonicCreateStream(sampleRate, 1);
    if (!stream) throw new Error('Sonic could not create a stream.');
    sonic._sonicSetSpeed(stream, speed);
    sonic._sonicSetQuality(stream, 0); // Sonic's default: five times faster than 1, and as clear for speech
    const buffer = sonic._malloc(BLOCK * 2);
    return new TimeStretcher(sonic, stream, buffer, speed);
  }

  /** Takes the next samples; returns the stretched samples that are ready. */
  process(samples: Int16Array): Int16Array {
    this.check();
    for (let offset = 0; offset < samples.length; offset += BLOCK) {
      const piece = samples.subarray(offset, Math.min(samples.length, offset + BLOCK));
      this.sonic.HEAP16.set(piece, this.buffer >> 1);
      this.sonic._sonicWriteShortToStream(this.stream, this.buffer, piece.length);
    }
    return this.drain();
  }

  /** Ends the stream: returns what Sonic still holds and frees it. */
  flush(): Int16Array {
    this.check();
    this.sonic._sonicFlushStream(this.stream);
    const rest = this.drain();
    this.release();
    return rest;
  }

  /** Frees the WebAssembly memory without reading what is left (after an error or a cancel). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.sonic._sonicDestroyStream(this.stream);
    this.sonic._free(this.buffer);
  }

  private drain(): Int16Array {
    const parts: Int16Array[] = [];
    for (;;) {
      const count = this.sonic._sonicReadShortFromStream(this.stream, this.buffer, BLOCK);
      if (count <= 0) break;
      // Copy out: the heap view may be replaced when WebAssembly memory grows.
      parts.push(this.sonic.HEAP16.slice(this.buffer >> 1, (this.buffer >> 1) + count));
    }
    return concatSamples(parts);
  }

  private check(): void {
    if (this.released) throw new Error('The time stretcher is already finished.');
  }
}

/** Stretches a whole clip at once to `speed` times faster (for short clips such as one subtitle cue). */
export async function stretchClip(samples: Int16Array, sampleRate: number, speed: number): Promise<Int16Array> {
  if (Math.abs(speed - 1) < 1e-6) return samples;
  const stretcher = await TimeStretcher.create(sampleRate, speed);
  try {
    return concatSamples([stretcher.process(samples), stretcher.flush()]);
  } finally {
    stretcher.release();
  }
}

/** `samples` cut or padded with silence to exactly `length` samples. */
export function fitLength(samples: Int16Array, length: number): Int16Array {
  if (samples.length === length) return samples;
  if (samples.length > length) return samples.subarray(0, length);
  const out = new Int16Array(length);
  out.set(samples);
  return out;
}
