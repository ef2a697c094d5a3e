/**
 * The audio of a live TTS job as it is written: the engine appends to `<output>.partial` while it speaks
 * (TtsTask.live) and renames it when done, so reading the open file until the job ends yields every byte
 * once, in order, long before the job finishes. Then the shapes OpenAI's formats need on the way out:
 * a streaming WAV header, raw PCM, or Ogg Opus encoded by ffmpeg as the WAV arrives.
 */
import { spawn } from 'node:child_process';
import { open, type FileHandle } from 'node:fs/promises';
import type { JobService } from '../jobs/job-service';
import { isActive, type JobRecord } from '../jobs/types';
import { isWasmMedia, mediaToolchain, type MediaToolchain } from '../engine/media/media-toolchain';
import { startWasmFfmpeg } from '../engine/media/wasm-ffmpeg';

/** How often the file is looked at between job events (a chunk of speech takes far longer). */
const POLL_MS = 20;
const READ_BYTES = 64 * 1024;
const WAV_HEADER_BYTES = 44;

/** The job ended without succeeding; `job` says how. */
export class JobEndedError extends Error {
  constructor(readonly job: JobRecord) {
    super(job.error ?? `The job was ${job.status}.`);
    this.name = 'JobEndedError';
  }
}

/** Resolves on the job's next change or after `ms`, whichever comes first. */
function nextChange(jobs: JobService, id: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      jobs.off('change', onChange);
      resolve();
    };
    const onChange = (job: JobRecord): void => {
      if (job.id === id) done();
    };
    const timer = setTimeout(done, ms);
    jobs.on('change', onChange);
  });
}

/** Every byte of a live TTS job's output, as it is written; throws JobEndedError when the job fails. */
export async function* tailJobOutput(jobs: JobService, id: string, signal?: AbortSignal): AsyncGenerator<Buffer> {
  const job = jobs.get(id);
  if (!job) throw new Error(`Job ${id} is not in the store.`);
  const final = jobs.files.file(id, jobs.files.outputFileName(job));
  let handle: FileHandle | undefined;
  let position = 0;
  try {
    while (!signal?.aborted) {
      // The state is read before the file: bytes written before the job ended are all there when it has.
      const latest = jobs.get(id) ?? job;
      const ended = !isActive(latest.status);
      if (ended && latest.status !== 'succeeded') throw new JobEndedError(latest);
      handle ??= (await open(`${final}.partial`, 'r').catch(() => undefined)) ?? (await open(final, 'r').catch(() => undefined));
      if (handle) {
        for (;;) {
          const buffer = Buffer.alloc(READ_BYTES);
          const { bytesRead } = await handle.read(buffer, 0, READ_BYTES, position);
          if (bytesRead === 0) break;
          position += bytesRead;
          yield buffer.subarray(0, bytesRead);
        }
      }
      if (ended) {
        if (!handle) throw new JobEndedError({ ...latest, error: 'The output file of this job is gone from the data directory.' });
        return;
      }
      await nextChange(jobs, id, POLL_MS);
    }
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * A WAV stream whose header says "length unknown" (0xFFFFFFFF), as streaming WAV does: the writer patches
 * the real sizes only at the end, after these bytes have left.
 */
export async function* streamingWav(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let head = Buffer.alloc(0);
  let passed = false;
  for await (const chunk of source) {
    if (passed) {
      yield chunk;
      continue;
    }
    head = Buffer.concat([head, chunk]);
    if (head.length < WAV_HEADER_BYTES) continue;
    head.writeUInt32LE(0xffffffff, 4);
    head.writeUInt32LE(0xffffffff, 40);
    passed = true;
    yield head;
  }
}

/** The samples of a WAV stream without its 44-byte header: OpenAI's `pcm`. */
export async function* pcmFromWav(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let skip = WAV_HEADER_BYTES;
  for await (const chunk of source) {
    if (skip >= chunk.length) {
      skip -= chunk.length;
      continue;
    }
    yield skip > 0 ? chunk.subarray(skip) : chunk;
    skip = 0;
  }
}

/** libopus settings for speech. */
const OPUS_ARGS = ['-c:a', 'libopus', '-b:a', '48k', '-application', 'voip', '-page_duration', '200000', '-flush_packets', '1', '-f', 'ogg'];

/** Ogg Opus from a WAV stream, encoded by ffmpeg (libopus, system or WebAssembly) as the WAV arrives. */
export async function* opusFromWav(source: AsyncIterable<Buffer>, tools: MediaToolchain = mediaToolchain()): AsyncGenerator<Buffer> {
  if (isWasmMedia(tools)) {
    yield* opusFromWavWasm(source);
    return;
  }
  const child = spawn(tools.ffmpeg, [
    '-nostdin', '-hide_banner', '-nostats', '-v', 'error', '-f', 'wav', '-i', 'pipe:0', ...OPUS_ARGS, 'pipe:1',
  ], { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    if (stderr.length < 4096) stderr += text;
  });
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  let feedError: unknown;
  const feeding = (async () => {
    try {
      for await (const chunk of source) {
        if (!child.stdin.write(chunk)) await new Promise((resolve) => child.stdin.once('drain', resolve));
      }
    } catch (error) {
      feedError = error;
      child.kill('SIGKILL');
    } finally {
      child.stdin.end();
    }
  })();
  try {
    for await (const chunk of child.stdout) yield chunk as Buffer;
    await feeding;
    if (feedError) throw feedError;
    const code = await exited;
    if (code !== 0) throw new Error(`ffmpeg could not encode Opus: ${stderr.trim().split('\n')[0] || `exit code ${code}`}`);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await feeding.catch(() => undefined);
  }
}

/**
 * opusFromWav on the WebAssembly ffmpeg: the WAV goes to its /dev/in, the Ogg pages come from /dev/out. Mono,
 * because stereo libopus crashes that build.
 */
async function* opusFromWavWasm(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const pages: Buffer[] = [];
  let wake: (() => void) | undefined;
  const signal = (): void => {
    wake?.();
    wake = undefined;
  };
  const run = await startWasmFfmpeg({
    program: 'ffmpeg',
    args: ['-nostdin', '-hide_banner', '-nostats', '-v', 'error', '-f', 'wav', '-i', '/dev/in', '-ac', '1', ...OPUS_ARGS, '/dev/out'],
    streamIn: true,
    onOutput: (chunk) => {
      pages.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      signal();
    },
  });
  let ended = false;
  void run.done.finally(() => {
    ended = true;
    signal();
  });
  let feedError: unknown;
  const feeding = (async () => {
    try {
      for await (const chunk of source) await run.write(chunk);
    } catch (error) {
      feedError = error;
      await run.abort();
    } finally {
      run.end();
    }
  })();
  try {
    for (;;) {
      const page = pages.shift();
      if (page) {
        yield page;
        continue;
      }
      if (ended) break;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    await feeding;
    if (feedError) throw feedError;
    const { code, stderr } = await run.done;
    if (code !== 0) throw new Error(`ffmpeg could not encode Opus: ${stderr.trim().split('\n')[0] || `exit code ${code}`}`);
  } finally {
    if (!ended) await run.abort();
    await feeding.catch(() => undefined);
  }
}
