/**
 * Turning a session's base64 input audio into 16 kHz samples, off the server's event loop: a small pool of
 * worker threads shared by every live session of the process (at most two; they do not keep the process
 * alive). Each session's audio goes to one thread, which keeps its streaming resampler's state, and its chunks
 * come back in the order they were sent, with exactly the samples audio-input.ts gives when run in place.
 */
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { audioInput, isBase64Audio, type InputFormat } from './audio-input';

/** One session's audio in one input format, chunk by chunk. */
export interface AudioStream {
  /** The 16 kHz samples a base64 chunk adds, or null when it is not valid base64. */
  push(base64: string): Promise<Int16Array | null>;
  /** Forgets the stream's state; pushes still waiting are answered first. */
  close(): void;
}

export interface AudioConverter {
  open(format: InputFormat): AudioStream;
}

/** Messages to the audio thread. */
export type AudioRequest =
  | { type: 'open'; stream: number; format: InputFormat }
  | { type: 'push'; stream: number; audio: string }
  | { type: 'close'; stream: number };

/** The audio thread's answer to each push, in order. */
export type AudioReply = { stream: number; samples: Int16Array | null } | { stream: number; error: string };

/** Converts in place, on the caller's thread: for tests and tools that run a session without a server. */
export const inlineAudio: AudioConverter = {
  open(format) {
    const input = audioInput(format);
    return {
      push: (base64) => Promise.resolve(isBase64Audio(base64) ? input.push(Buffer.from(base64, 'base64')) : null),
      close: () => undefined,
    };
  },
};

interface Waiter {
  resolve(samples: Int16Array | null): void;
  reject(error: Error): void;
}

class AudioThread {
  private readonly worker: Worker;
  /** Each open stream's pushes waiting for their answer, oldest first. */
  private readonly waiting = new Map<number, Waiter[]>();
  /** Streams closed while pushes were still waiting for their answer. */
  private readonly closing = new Set<number>();
  private failure: Error | undefined;
  /** Pushes waiting for their answer over every stream: while there are any, the thread keeps the process alive. */
  private pending = 0;

  constructor() {
    this.worker = spawnWorker();
    this.worker.on('message', (reply: AudioReply) => {
      const waiters = this.waiting.get(reply.stream);
      const waiter = waiters?.shift();
      if (!waiter) return;
      this.settled();
      if (waiters?.length === 0 && this.closing.delete(reply.stream)) this.waiting.delete(reply.stream);
      if ('error' in reply) waiter.reject(new Error(reply.error));
      else waiter.resolve(reply.samples);
    });
    const fail = (error: Error): void => {
      this.failure ??= error;
      for (const waiters of this.waiting.values()) {
        for (const waiter of waiters.splice(0)) {
          this.settled();
          waiter.reject(this.failure);
        }
      }
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`The audio thread stopped (exit code ${code}).`)));
    // After the listeners: adding a 'message' listener refs the thread again.
    this.worker.unref();
  }

  get streams(): number {
    return this.waiting.size;
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }

  open(stream: number, format: InputFormat): AudioStream {
    this.waiting.set(stream, []);
    this.post({ type: 'open', stream, format });
    return {
      push: (audio) =>
        new Promise<Int16Array | null>((resolve, reject) => {
          const waiters = this.waiting.get(stream);
          if (this.failure) return reject(this.failure);
          if (!waiters || this.closing.has(stream)) return reject(new Error('The audio stream is closed.'));
          waiters.push({ resolve, reject });
          if (this.pending++ === 0) this.worker.ref();
          this.post({ type: 'push', stream, audio });
        }),
      close: () => {
        if (!this.waiting.has(stream) || this.closing.has(stream)) return;
        this.post({ type: 'close', stream });
        // Pushes already sent are still answered (the thread handles messages in order); then the stream is gone.
        if (this.waiting.get(stream)?.length === 0) this.waiting.delete(stream);
        else this.closing.add(stream);
      },
    };
  }

  private settled(): void {
    if (--this.pending === 0) this.worker.unref();
  }

  private post(request: AudioRequest): void {
    if (!this.failure) this.worker.postMessage(request);
  }
}

/** The audio threads of a process: at most two (one on a single core), started on first use. */
export class AudioThreads implements AudioConverter {
  private readonly threads: AudioThread[] = [];
  private nextStream = 1;

  constructor(private readonly size = Math.max(1, Math.min(2, os.availableParallelism() - 1))) {}

  open(format: InputFormat): AudioStream {
    // A thread that failed is replaced; its streams fail, new ones go to a working thread.
    for (let i = this.threads.length - 1; i >= 0; i -= 1) if (this.threads[i].failed) this.threads.splice(i, 1);
    const thread =
      this.threads.length < this.size
        ? this.started()
        : this.threads.reduce((least, candidate) => (candidate.streams < least.streams ? candidate : least));
    return thread.open(this.nextStream++, format);
  }

  private started(): AudioThread {
    const thread = new AudioThread();
    this.threads.push(thread);
    return thread;
  }
}

let shared: AudioThreads | undefined;

/** The process's one pool of audio threads, shared by every live session of every door. */
export function sharedAudioThreads(): AudioThreads {
  shared ??= new AudioThreads();
  return shared;
}

function spawnWorker(): Worker {
  if (__filename.endsWith('.ts')) {
    // Running from source (tests, benchmarks): load the TypeScript entry through tsx.
    const entry = path.join(__dirname, 'audio-worker.ts');
    return new Worker(
      `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register(); require(${JSON.stringify(entry)});`,
      { eval: true },
    );
  }
  return new Worker(path.join(__dirname, 'realtime-audio-worker.js'));
}
