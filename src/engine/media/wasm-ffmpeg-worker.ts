/**
 * The worker thread that runs one ffmpeg or ffprobe command on ffmpeg compiled to WebAssembly
 * (`@ffmpeg/core`). Its `exec` is synchronous, so it runs here and never on the caller's event loop. Files
 * are never copied into the WebAssembly memory: inputs are read from their file descriptor a block at a time
 * (WORKERFS over a file-backed blob), outputs are written to disk as ffmpeg writes them, and the streamed
 * input and output devices pass chunks to and from the caller (wasm-ffmpeg.ts).
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { webAssembly, type CompiledModule, type WasmJobData, type WasmWorkerMessage } from './wasm-ffmpeg-protocol';

interface EmscriptenStream {
  position: number;
}

interface DeviceOps {
  open?: (stream: EmscriptenStream) => void;
  close?: (stream: EmscriptenStream) => void;
  read: (stream: EmscriptenStream, buffer: Int8Array, offset: number, length: number, position: number) => number;
  write: (stream: EmscriptenStream, buffer: Int8Array, offset: number, length: number, position: number) => number;
  llseek: (stream: EmscriptenStream, offset: number, whence: number) => number;
}

interface FfmpegCore {
  FS: {
    mkdir(path: string): void;
    mount(type: unknown, options: unknown, path: string): void;
    filesystems: { WORKERFS: unknown };
    makedev(major: number, minor: number): number;
    registerDevice(dev: number, ops: DeviceOps): void;
    mkdev(path: string, mode: number, dev: number): void;
    lookupPath(path: string): { node: { mode: number } };
    ErrnoError: new (errno: number) => Error;
    readFile(path: string, options: { encoding: 'utf8' }): string;
    writeFile(path: string, data: string): void;
  };
  exec(...args: string[]): number;
  ffprobe(...args: string[]): number;
  setLogger(logger: (entry: { type: string; message: string }) => void): void;
  ret: number;
}

type CoreFactory = (options: Record<string, unknown>) => Promise<FfmpegCore>;

const job = workerData as WasmJobData;
const post = (message: WasmWorkerMessage, transfer: ArrayBuffer[] = []): void =>
  parentPort?.postMessage(message, transfer);

/** A slice of an input file, as WORKERFS asks for it; read by the FileReaderSync below. */
interface FileSlice {
  fd: number;
  start: number;
  end: number;
  size: number;
}

// The core was built for a browser worker: these three are all it looks for in Node.
const globals = globalThis as Record<string, unknown>;
globals.self = globalThis;
globals.location = { href: __filename };
globals.importScripts = () => undefined;
// WORKERFS reads a block with `new FileReaderSync().readAsArrayBuffer(blob.slice(a, b))`.
globals.FileReaderSync = class {
  readAsArrayBuffer(slice: FileSlice): ArrayBuffer {
    const bytes = new Uint8Array(slice.size);
    let done = 0;
    while (done < bytes.length) {
      const read = readSync(slice.fd, bytes, done, bytes.length - done, slice.start + done);
      if (read === 0) break;
      done += read;
    }
    return bytes.buffer;
  }
};

function fileBlob(fd: number): { size: number; slice(start: number, end: number): FileSlice } {
  const size = fstatSync(fd).size;
  return {
    size,
    slice(start, end) {
      const stop = Math.min(end, size);
      return { fd, start, end: stop, size: Math.max(0, stop - start) };
    },
  };
}

/** A device that writes where ffmpeg says (flac and mp4 go back to fill in their headers) into a real file. */
function fileDevice(fd: number): DeviceOps {
  return {
    read: () => 0,
    write: (_stream, buffer, offset, length, position) => writeSync(fd, buffer, offset, length, position),
    llseek: (stream, offset, whence) =>
      whence === 0 ? offset : whence === 1 ? stream.position + offset : fstatSync(fd).size + offset,
  };
}

/** `/dev/in`: chunks the caller sends; a read blocks (Atomics.wait) until one arrives or the input ends. */
function streamInDevice(port: MessagePort, signal: Int32Array, unseekable: () => never): DeviceOps {
  let pending: Uint8Array | null = null;
  let used = 0;
  let ended = false;
  let unreported = 0;
  return {
    read: (_stream, buffer, offset, length) => {
      while (!ended && (pending === null || used >= pending.length)) {
        const seen = Atomics.load(signal, 0);
        const received = receiveMessageOnPort(port);
        if (!received) {
          Atomics.wait(signal, 0, seen);
          continue;
        }
        if (received.message === null) ended = true;
        else {
          pending = received.message as Uint8Array;
          used = 0;
        }
      }
      if (ended && (pending === null || used >= pending.length)) return 0;
      const chunk = pending as Uint8Array;
      const count = Math.min(length, chunk.length - used);
      buffer.set(new Int8Array(chunk.buffer, chunk.byteOffset + used, count), offset);
      used += count;
      unreported += count;
      if (unreported >= 256 * 1024 || used >= chunk.length) {
        post({ type: 'consumed', bytes: unreported });
        unreported = 0;
      }
      return count;
    },
    write: () => 0,
    llseek: unseekable,
  };
}

/** `/dev/out`: each write goes to the caller as a chunk. */
function streamOutDevice(unseekable: () => never): DeviceOps {
  return {
    read: () => 0,
    write: (_stream, buffer, offset, length) => {
      const copy = new Uint8Array(length);
      copy.set(new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length));
      post({ type: 'out', chunk: copy }, [copy.buffer]);
      return length;
    },
    llseek: unseekable,
  };
}

async function run(): Promise<void> {
  const createCore = require('@ffmpeg/core') as CoreFactory;
  const core = await createCore({
    instantiateWasm: (imports: object, receive: (instance: object, module: CompiledModule) => void) => {
      void webAssembly.instantiate(job.module, imports).then((instance) => receive(instance, job.module));
      return {};
    },
  });
  const fs = core.FS;
  const opened: number[] = [];
  const stderr: string[] = [];
  const stdout: string[] = [];
  core.setLogger(({ type, message }) => {
    if (type === 'stdout') stdout.push(message);
    // The core ends every command through abort(); that line is no error.
    else if (stderr.length < 200 && message !== 'Aborted()') stderr.push(message);
  });

  fs.mkdir('/in');
  const blobs = job.inputs.map((hostPath, index) => {
    const fd = openSync(hostPath, 'r');
    opened.push(fd);
    return { name: String(index), data: fileBlob(fd) };
  });
  fs.mount(fs.filesystems.WORKERFS, { blobs }, '/in');
  for (const [index, text] of (job.textInputs ?? []).entries()) fs.writeFile(`/text${index}`, text);

  let minor = 0;
  const device = (path: string, ops: DeviceOps, pipe = false): void => {
    const dev = fs.makedev(64, minor++);
    fs.registerDevice(dev, ops);
    fs.mkdev(path, 0o666, dev);
    // The input stream shows as a FIFO, so ffmpeg's file protocol treats it as unseekable (as it does pipe:).
    // Not the output one: opening a FIFO for writing would try to truncate it.
    if (pipe) fs.lookupPath(path).node.mode = (fs.lookupPath(path).node.mode & ~0o170000) | 0o010000;
  };
  const unseekable = (): never => {
    throw new fs.ErrnoError(70); // ESPIPE
  };
  fs.mkdir('/out');
  job.outputs.forEach((hostPath, index) => {
    const fd = openSync(hostPath, 'w');
    opened.push(fd);
    device(`/out/${index}`, fileDevice(fd));
  });
  if (job.streamIn)
    device('/dev/in', streamInDevice(job.streamIn.port, new Int32Array(job.streamIn.signal), unseekable), true);
  if (job.streamOut) device('/dev/out', streamOutDevice(unseekable));

  let code: number;
  try {
    code = job.program === 'ffprobe' ? core.ffprobe(...job.args) : core.exec(...job.args);
  } catch (error) {
    stderr.push(error instanceof Error ? error.message : String(error));
    code = 1;
  }
  for (const fd of opened) closeSync(fd);
  let probeOutput: string | undefined;
  if (job.program === 'ffprobe') {
    try {
      probeOutput = fs.readFile('/probe.json', { encoding: 'utf8' });
    } catch {
      probeOutput = undefined;
    }
    // The core's ffprobe leaves its exit code unset: an unreadable input shows as no format in the JSON.
    code = probeOutput !== undefined && probeOutput.includes('"format"') ? 0 : 1;
  }
  post({ type: 'done', code, stderr: stderr.join('\n'), stdout: probeOutput ?? stdout.join('\n') });
}

run().catch((error: unknown) =>
  post({ type: 'done', code: 1, stderr: error instanceof Error ? error.message : String(error), stdout: '' }),
);
