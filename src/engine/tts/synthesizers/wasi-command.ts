/**
 * Runs a WASI (preview 1) command module once, in memory: arguments in, files it creates collected as
 * bytes, stdout/stderr as text. Just the calls Flite makes. Node's own `node:wasi` (uvwasi) crashed the
 * process now and then on Flite's longer inputs (SIGSEGV/SIGTRAP in Node 20); this shim does not, needs no
 * temporary folder, and prints no "experimental" warning.
 */

const SUCCESS = 0;
const EBADF = 8;
const FILETYPE_CHARACTER_DEVICE = 2;
const FILETYPE_DIRECTORY = 3;
const FILETYPE_REGULAR_FILE = 4;
/** The one preopened directory, where the command creates its output files. */
const PREOPEN_FD = 3;
const PREOPEN_NAME = '/io';

class ProcExit {
  constructor(readonly code: number) {}
}

interface MemoryFile {
  data: Uint8Array;
  length: number;
  position: number;
}

export interface WasiRun {
  exitCode: number;
  /** Files the command created in `/io`, by name. */
  files: Map<string, Uint8Array>;
  output: string;
}

interface WasmInstance {
  exports: { memory: { buffer: ArrayBuffer }; _start(): void };
}
interface Wasm {
  instantiate(module: object, imports: object): Promise<WasmInstance>;
}
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

export async function runWasiCommand(module: object, args: readonly string[]): Promise<WasiRun> {
  let memory: { buffer: ArrayBuffer } | undefined;
  const view = (): DataView => new DataView(memory!.buffer);
  const bytes = (): Uint8Array => new Uint8Array(memory!.buffer);
  const argBytes = args.map((arg) => Buffer.from(`${arg}\0`, 'utf8'));
  const open = new Map<number, { name: string; file: MemoryFile }>();
  const created = new Map<string, MemoryFile>();
  let nextFd = PREOPEN_FD + 1;
  let output = '';

  const calls = {
    args_sizes_get(countPtr: number, sizePtr: number): number {
      view().setUint32(countPtr, argBytes.length, true);
      view().setUint32(
        sizePtr,
        argBytes.reduce((sum, arg) => sum + arg.length, 0),
        true,
      );
      return SUCCESS;
    },
    args_get(argvPtr: number, bufferPtr: number): number {
      let at = bufferPtr;
      argBytes.forEach((arg, i) => {
        view().setUint32(argvPtr + 4 * i, at, true);
        bytes().set(arg, at);
        at += arg.length;
      });
      return SUCCESS;
    },
    clock_time_get(_id: number, _precision: bigint, timePtr: number): number {
      view().setBigUint64(timePtr, process.hrtime.bigint(), true);
      return SUCCESS;
    },
    fd_close(fd: number): number {
      open.delete(fd);
      return SUCCESS;
    },
    fd_fdstat_get(fd: number, statPtr: number): number {
      const v = view();
      v.setUint8(
        statPtr,
        fd <= 2 ? FILETYPE_CHARACTER_DEVICE : fd === PREOPEN_FD ? FILETYPE_DIRECTORY : FILETYPE_REGULAR_FILE,
      );
      v.setUint16(statPtr + 2, 0, true);
      v.setBigUint64(statPtr + 8, 0xffffffffffffffffn, true);
      v.setBigUint64(statPtr + 16, 0xffffffffffffffffn, true);
      return SUCCESS;
    },
    fd_fdstat_set_flags: (): number => SUCCESS,
    fd_prestat_get(fd: number, prestatPtr: number): number {
      if (fd !== PREOPEN_FD) return EBADF;
      view().setUint8(prestatPtr, 0);
      view().setUint32(prestatPtr + 4, PREOPEN_NAME.length, true);
      return SUCCESS;
    },
    fd_prestat_dir_name(fd: number, pathPtr: number, length: number): number {
      if (fd !== PREOPEN_FD) return EBADF;
      bytes().set(Buffer.from(PREOPEN_NAME).subarray(0, length), pathPtr);
      return SUCCESS;
    },
    fd_read(_fd: number, _iovs: number, _count: number, readPtr: number): number {
      view().setUint32(readPtr, 0, true); // stdin is empty
      return SUCCESS;
    },
    fd_seek(fd: number, offset: bigint, whence: number, newOffsetPtr: number): number {
      const file = open.get(fd)?.file;
      if (!file) return EBADF;
      const base = whence === 0 ? 0 : whence === 1 ? file.position : file.length;
      file.position = Math.max(0, base + Number(offset));
      view().setBigUint64(newOffsetPtr, BigInt(file.position), true);
      return SUCCESS;
    },
    fd_write(fd: number, iovs: number, count: number, writtenPtr: number): number {
      const v = view();
      let total = 0;
      for (let i = 0; i < count; i++) {
        const pointer = v.getUint32(iovs + 8 * i, true);
        const length = v.getUint32(iovs + 8 * i + 4, true);
        const chunk = bytes().subarray(pointer, pointer + length);
        if (fd === 1 || fd === 2) {
          if (output.length < 16_384) output += Buffer.from(chunk).toString('utf8');
        } else {
          const file = open.get(fd)?.file;
          if (!file) return EBADF;
          writeAt(file, chunk);
        }
        total += length;
      }
      v.setUint32(writtenPtr, total, true);
      return SUCCESS;
    },
    path_open(_dirFd: number, _dirFlags: number, pathPtr: number, pathLength: number, ...rest: unknown[]): number {
      const fdPtr = rest[rest.length - 1] as number;
      const name = Buffer.from(bytes().subarray(pathPtr, pathPtr + pathLength)).toString('utf8');
      const file: MemoryFile = { data: new Uint8Array(1 << 16), length: 0, position: 0 };
      const fd = nextFd++;
      open.set(fd, { name, file });
      created.set(name, file);
      view().setUint32(fdPtr, fd, true);
      return SUCCESS;
    },
    proc_exit(code: number): never {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- not an error: the command's exit, caught around _start() below
      throw new ProcExit(code);
    },
  };

  const instance = await wasm.instantiate(module, { wasi_snapshot_preview1: calls });
  memory = instance.exports.memory;
  let exitCode = 0;
  try {
    instance.exports._start();
  } catch (error) {
    if (!(error instanceof ProcExit)) throw error;
    exitCode = error.code;
  }
  const files = new Map([...created].map(([name, file]) => [name, file.data.subarray(0, file.length)]));
  return { exitCode, files, output };
}

function writeAt(file: MemoryFile, chunk: Uint8Array): void {
  const end = file.position + chunk.length;
  if (end > file.data.length) {
    const grown = new Uint8Array(Math.max(end, file.data.length * 2));
    grown.set(file.data.subarray(0, file.length));
    file.data = grown;
  }
  file.data.set(chunk, file.position);
  file.position = end;
  file.length = Math.max(file.length, end);
}
