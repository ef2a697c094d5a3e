/** What the caller (wasm-ffmpeg.ts) and the WebAssembly ffmpeg worker (wasm-ffmpeg-worker.ts) pass each other. */
import type { MessagePort } from 'node:worker_threads';

/** A compiled WebAssembly.Module (the project's TypeScript lib has no WebAssembly types). */
export type CompiledModule = object;

/** The two WebAssembly calls used here, typed. */
export const webAssembly = (
  globalThis as unknown as {
    WebAssembly: {
      compile(bytes: Uint8Array): Promise<CompiledModule>;
      instantiate(module: CompiledModule, imports: object): Promise<object>;
    };
  }
).WebAssembly;

/** One command for the worker. Paths in `args` name the worker's own file system, see wasm-ffmpeg.ts. */
export interface WasmJobData {
  /** The compiled `ffmpeg-core.wasm`, compiled once per process and shared by every worker. */
  module: CompiledModule;
  program: 'ffmpeg' | 'ffprobe';
  args: string[];
  /** Files on disk, readable as `/in/0`, `/in/1`, … without being copied in. */
  inputs: string[];
  /** Small texts (a concat list, chapter metadata), readable as `/text0`, `/text1`, … */
  textInputs?: string[];
  /** Files on disk, created or truncated, writable as `/out/0`, `/out/1`, … */
  outputs: string[];
  /** `/dev/in`: chunks posted on `port`; `signal[0]` is bumped after each post so a blocked read wakes. */
  streamIn?: { port: MessagePort; signal: SharedArrayBuffer };
  /** `/dev/out`: every write is posted back as an `out` message. */
  streamOut?: boolean;
}

export type WasmWorkerMessage =
  | { type: 'out'; chunk: Uint8Array }
  | { type: 'consumed'; bytes: number }
  | { type: 'done'; code: number; stderr: string; stdout: string };
