/**
 * The resampler's multiply-adds in WebAssembly SIMD, four taps per instruction on Float32 (the scalar
 * JavaScript kernel spends as much CPU as espeak-ng's synthesis on a 22 050 → 24 000 Hz job). The module
 * is a few hundred bytes, written out below instruction by instruction, so no toolchain is needed to build
 * it. Where WebAssembly SIMD is missing, createFastResampler falls back to the scalar kernel (same filter).
 */
import type { PolyphaseFilter } from './polyphase-filter';
import { ScalarResampleKernel, type ResampleKernel } from './resample-kernel';
import { StreamingResampler } from './resampler';

const PAGE = 65_536;

/** The few WebAssembly calls used here, typed (the project's TypeScript lib has no WebAssembly types). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
type CompiledModule = object;
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      Module: new (bytes: Uint8Array) => CompiledModule;
      Instance: new (module: CompiledModule) => { exports: Record<string, unknown> };
    };
  }
).WebAssembly;

/**
 * (func (export "run") (param $n $in $k $up $groups $table $out i32) (result i32)) — for each of $n outputs:
 * the phase's coefficients (byte offset table[k].0) times the held input from byte $in, summed as f32x4,
 * rounded and clamped to 16 bits into $out; then $in moves by table[k].1 bytes and k steps round the
 * cycle. Returns the byte offset of the next output's first tap.
 */
function moduleBytes(): Uint8Array {
  const [n, input, k, up, groups, table, out, c, x, g, entry, acc, s] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const get = (i: number): number[] => [0x20, i];
  const set = (i: number): number[] => [0x21, i];
  const tee = (i: number): number[] => [0x22, i];
  const i32 = (v: number): number[] => [0x41, v];
  const f32 = (v: number): number[] => [0x43, ...new Uint8Array(new Float32Array([v]).buffer)];
  const lane = (i: number): number[] => [...get(acc), 0xfd, 0x1f, i];
  // prettier-ignore
  const body = [
    3, 4, 0x7f, 1, 0x7b, 1, 0x7d, // locals: c, x, g, entry (i32); acc (v128); s (f32)
    0x03, 0x40, // loop $outer
    ...get(table), ...get(k), ...i32(3), 0x74, 0x6a, ...set(entry),
    ...get(entry), 0x28, 2, 0, ...set(c),
    ...get(input), ...set(x),
    ...get(groups), ...set(g),
    0xfd, 0x0c, ...new Array<number>(16).fill(0), ...set(acc),
    0x03, 0x40, // loop $inner
    ...get(acc), ...get(c), 0xfd, 0x00, 0, 0, ...get(x), 0xfd, 0x00, 0, 0,
    0xfd, 0xe6, 0x01, 0xfd, 0xe4, 0x01, ...set(acc), // acc += c[0..3] * x[0..3]
    ...get(c), ...i32(16), 0x6a, ...set(c),
    ...get(x), ...i32(16), 0x6a, ...set(x),
    ...get(g), ...i32(1), 0x6b, ...tee(g), 0x0d, 0, // br_if $inner
    0x0b,
    ...lane(0), ...lane(1), 0x92, ...lane(2), ...lane(3), 0x92, 0x92,
    0x90, ...f32(-32768), 0x97, ...f32(32767), 0x96, ...set(s), // nearest, clamped
    ...get(out), ...get(s), 0xa8, 0x3b, 1, 0, // i32.store16
    ...get(out), ...i32(2), 0x6a, ...set(out),
    ...get(input), ...get(entry), 0x28, 2, 4, 0x6a, ...set(input),
    ...get(k), ...i32(1), 0x6a, ...tee(k), ...get(up), 0x46, 0x04, 0x40, ...i32(0), ...set(k), 0x0b,
    ...get(n), ...i32(1), 0x6b, ...tee(n), 0x0d, 0, // br_if $outer
    0x0b,
    ...get(input),
    0x0b,
  ];
  const section = (id: number, content: number[]): number[] => [id, ...leb(content.length), ...content];
  const name = (text: string): number[] => [text.length, ...Buffer.from(text, 'latin1')];
  // prettier-ignore
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 7, ...new Array<number>(7).fill(0x7f), 1, 0x7f]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 1]),
    ...section(7, [2, ...name('run'), 0, 0, ...name('memory'), 2, 0]),
    ...section(10, [1, ...leb(body.length), ...body]),
  ]);
}

function leb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

let compiled: CompiledModule | null | undefined;

/** The compiled module, or null where this runtime has no WebAssembly SIMD. */
function simdModule(): CompiledModule | null {
  if (compiled === undefined) {
    try {
      compiled = new wasm.Module(moduleBytes());
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

type RunExport = (
  n: number,
  input: number,
  k: number,
  up: number,
  groups: number,
  table: number,
  out: number,
) => number;

/** Memory: the phases' Float32 coefficients, the cycle's table, the held input, then the outputs. */
export class SimdResampleKernel implements ResampleKernel {
  private readonly memory: WasmMemory;
  private readonly runExport: RunExport;
  private readonly tableAt: number;
  private readonly historyAt: number;
  private historyCapacity = 0;
  private outputCapacity = 0;
  private floats!: Float32Array;
  length = 0;

  constructor(
    private readonly filter: PolyphaseFilter,
    module: CompiledModule,
  ) {
    const instance = new wasm.Instance(module);
    this.memory = instance.exports.memory as WasmMemory;
    this.runExport = instance.exports.run as RunExport;
    const coefficientBytes = filter.coefficients.length * 4;
    this.tableAt = coefficientBytes;
    this.historyAt = align16(this.tableAt + filter.upFactor * 8);
    this.reserve(8192, 8192);
    this.floats.set(filter.coefficients);
    const table = new Int32Array(this.memory.buffer, this.tableAt, filter.upFactor * 2);
    for (let k = 0; k < filter.upFactor; k++) {
      table[2 * k] = filter.phaseOf[k] * filter.taps * 4;
      table[2 * k + 1] = filter.advance[k] * 4;
    }
  }

  append(samples: Int16Array): void {
    this.reserve(this.length + samples.length, this.outputCapacity);
    this.floats.set(samples, this.historyAt / 4 + this.length);
    this.length += samples.length;
  }

  appendSilence(count: number): void {
    this.reserve(this.length + count, this.outputCapacity);
    const from = this.historyAt / 4 + this.length;
    this.floats.fill(0, from, from + count);
    this.length += count;
  }

  run(count: number, start: number, k: number): Int16Array {
    this.reserve(this.historyCapacity, count);
    const outAt = this.historyAt + this.historyCapacity * 4;
    const { upFactor, taps } = this.filter;
    this.runExport(count, this.historyAt + start * 4, k, upFactor, taps / 4, this.tableAt, outAt);
    return new Int16Array(this.memory.buffer, outAt, count).slice();
  }

  discard(count: number): void {
    const at = this.historyAt / 4;
    this.floats.copyWithin(at, at + count, at + this.length);
    this.length -= count;
  }

  private reserve(history: number, outputs: number): void {
    if (history <= this.historyCapacity && outputs <= this.outputCapacity) return;
    const historyCapacity = Math.max(history, this.historyCapacity * 2);
    const outputCapacity = Math.max(outputs, this.outputCapacity * 2);
    const bytes = this.historyAt + historyCapacity * 4 + outputCapacity * 2;
    const missing = Math.ceil((bytes - this.memory.buffer.byteLength) / PAGE);
    if (missing > 0) this.memory.grow(missing);
    this.floats = new Float32Array(this.memory.buffer);
    // The outputs live after the held input, which keeps its place: only the output area moves.
    this.historyCapacity = historyCapacity;
    this.outputCapacity = outputCapacity;
  }
}

const align16 = (bytes: number): number => Math.ceil(bytes / 16) * 16;

/** Whether this runtime runs the SIMD kernel (else createFastResampler falls back to the scalar one). */
export function hasSimdResampler(): boolean {
  return simdModule() !== null;
}

/** A StreamingResampler on the SIMD kernel, or on the scalar one where WebAssembly SIMD is missing. */
export function createFastResampler(inputRate: number, outputRate: number): StreamingResampler {
  const module = simdModule();
  return new StreamingResampler(inputRate, outputRate, (filter) =>
    module ? new SimdResampleKernel(filter, module) : new ScalarResampleKernel(filter),
  );
}
