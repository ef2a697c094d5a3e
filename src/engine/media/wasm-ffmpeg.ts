/**
 * Runs ffmpeg or ffprobe compiled to WebAssembly (`@ffmpeg/core`) in a worker thread of this process, for
 * machines without a system ffmpeg. The 31 MB module is compiled once per process; each command gets a fresh
 * worker (a clean ffmpeg state, and a cancel that is just ending the thread). Input files stay on disk and
 * are read in blocks; `/dev/in` and `/dev/out` stream through messages with back-pressure on the input.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { webAssembly, type CompiledModule, type WasmJobData, type WasmWorkerMessage } from './wasm-ffmpeg-protocol';

/** How far the worker may fall behind the caller's input before `write` waits. */
const INPUT_WINDOW_BYTES = 4 * 1024 * 1024;

export interface WasmCommand {
  program: 'ffmpeg' | 'ffprobe';
  /** Arguments naming `/in/N`, `/textN`, `/out/N`, `/dev/in`, `/dev/out` (see wasm-ffmpeg-protocol.ts). */
  args: string[];
  inputs?: string[];
  textInputs?: string[];
  outputs?: string[];
  /** Opens `/dev/in`: feed it with `write` and `end`. */
  streamIn?: boolean;
  /** Opens `/dev/out`: each chunk ffmpeg writes there. */
  onOutput?: (chunk: Uint8Array) => void;
}

export interface WasmResult {
  code: number;
  stderr: string;
  /** ffprobe's JSON, or what ffmpeg printed. */
  stdout: string;
}

export interface WasmRun {
  write(chunk: Uint8Array): Promise<void>;
  end(): void;
  readonly done: Promise<WasmResult>;
  abort(): Promise<void>;
}

let compiled: Promise<CompiledModule> | undefined;

/** The compiled core, shared by every worker of this process. */
export function wasmFfmpegModule(): Promise<CompiledModule> {
  compiled ??= readFile(require.resolve('@ffmpeg/core/wasm')).then((bytes) => webAssembly.compile(bytes));
  return compiled;
}

function spawnWorker(data: WasmJobData, transfer: MessagePort[]): Worker {
  const options = { workerData: data, transferList: transfer };
  if (__filename.endsWith('.ts')) {
    // Running from source (tests, benchmarks): load the TypeScript entry through tsx.
    const entry = path.join(__dirname, 'wasm-ffmpeg-worker.ts');
    return new Worker(
      `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register(); require(${JSON.stringify(entry)});`,
      { ...options, eval: true },
    );
  }
  return new Worker(path.join(__dirname, 'media-wasm-worker.js'), options);
}

/** Starts one command; the worker ends by itself when ffmpeg does. */
export async function startWasmFfmpeg(command: WasmCommand): Promise<WasmRun> {
  const module = await wasmFfmpegModule();
  const channel = command.streamIn ? new MessageChannel() : undefined;
  const signal = command.streamIn ? new SharedArrayBuffer(4) : undefined;
  const data: WasmJobData = {
    module,
    program: command.program,
    args: command.program === 'ffprobe' ? [...command.args, '-o', '/probe.json'] : command.args,
    inputs: command.inputs ?? [],
    textInputs: command.textInputs,
    outputs: command.outputs ?? [],
    streamIn: channel && signal ? { port: channel.port2, signal } : undefined,
    streamOut: command.onOutput !== undefined,
  };
  const worker = spawnWorker(data, channel ? [channel.port2] : []);

  let sent = 0;
  let consumed = 0;
  let finished = false;
  let wake: (() => void) | undefined;
  const wakeWriter = (): void => {
    wake?.();
    wake = undefined;
  };
  const done = new Promise<WasmResult>((resolve, reject) => {
    worker.on('message', (message: WasmWorkerMessage) => {
      if (message.type === 'out') command.onOutput?.(message.chunk);
      else if (message.type === 'consumed') {
        consumed += message.bytes;
        if (sent - consumed <= INPUT_WINDOW_BYTES) wakeWriter();
      } else {
        finished = true;
        wakeWriter();
        resolve({ code: message.code, stderr: message.stderr, stdout: message.stdout });
        void worker.terminate();
      }
    });
    worker.once('error', (error) => {
      finished = true;
      wakeWriter();
      reject(error);
    });
    worker.once('exit', () => {
      finished = true;
      wakeWriter();
      resolve({ code: 1, stderr: 'The WebAssembly ffmpeg stopped.', stdout: '' });
    });
  });
  channel?.port1.unref();
  const notify = (): void => {
    const counter = new Int32Array(signal as SharedArrayBuffer);
    Atomics.add(counter, 0, 1);
    Atomics.notify(counter, 0);
  };

  return {
    async write(chunk) {
      if (!channel || finished || chunk.length === 0) return;
      // A copy of its own (Buffer#slice would share, and transferring would detach, the caller's memory).
      const copy = new Uint8Array(chunk);
      channel.port1.postMessage(copy, [copy.buffer]);
      sent += copy.length;
      notify();
      while (!finished && sent - consumed > INPUT_WINDOW_BYTES) await new Promise<void>((resolve) => (wake = resolve));
    },
    end() {
      if (!channel) return;
      channel.port1.postMessage(null);
      notify();
    },
    done,
    async abort() {
      finished = true;
      wakeWriter();
      await worker.terminate();
    },
  };
}

/** Runs a command with file inputs and outputs to the end. */
export async function runWasmFfmpeg(command: WasmCommand): Promise<WasmResult> {
  const run = await startWasmFfmpeg(command);
  return run.done;
}
