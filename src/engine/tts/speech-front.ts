/**
 * Where synthesized speech goes during the first pass: the FrontChain (stretch, trim, resample), then
 * the SpeechRecorder (denoise, measure, spool). It runs in a worker thread when it can, so that this
 * processing overlaps the synthesis on another core; in this thread otherwise (same results, slower).
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { FrontChain, type FrontChainOptions } from '../audio/front-chain';
import { SpeechRecorder, type RecordingSummary } from './speech-recorder';
import { engineConfig } from '../../engine-api/engine-config';

export interface FrontSettings extends FrontChainOptions {
  spoolPath: string;
  denoise: boolean;
}

export interface SpeechFront {
  /** Engine samples, in order; may be called synchronously from inside an engine's callback. */
  push(samples: Int16Array): void;
  /** Resolves once little enough is queued (back-pressure between chunks). */
  drain(): Promise<void>;
  finish(): Promise<RecordingSummary>;
  abort(): Promise<void>;
}

/** Messages to and from the front worker (front-worker.ts). */
export type FrontRequest =
  { type: 'init'; settings: FrontSettings } | { type: 'samples'; samples: Int16Array } | { type: 'end' };
export type FrontReply =
  | { type: 'ready' }
  | { type: 'ack' }
  | { type: 'done'; summary: RecordingSummary }
  | { type: 'error'; message: string };

/** Samples gathered into one message to the worker: a message costs far more than copying samples. */
const BATCH_SAMPLES = 32_768;
/** Messages queued for the worker before a chunk waits (about 45 s of audio at 22 050 Hz). */
const MAX_QUEUED = 32;

export async function startLocalFront(settings: FrontSettings): Promise<SpeechFront> {
  const chain = await FrontChain.create(settings);
  const recorder = await SpeechRecorder.create(settings.spoolPath, settings.outputRate, { denoise: settings.denoise });
  let queue = Promise.resolve();
  let failure: unknown;
  const enqueue = (samples: Int16Array): void => {
    if (samples.length === 0) return;
    queue = queue
      .then(() => recorder.write(samples))
      .catch((error: unknown) => {
        failure ??= error;
      });
  };
  return {
    push: (samples) => enqueue(chain.push(samples)),
    drain: async () => {
      await queue;
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- what the recorder's write threw, handed on as it was
      if (failure) throw failure;
    },
    finish: async () => {
      enqueue(chain.finish());
      chain.release();
      await queue;
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- what the recorder's write threw, handed on as it was
      if (failure) throw failure;
      return recorder.finish();
    },
    abort: async () => {
      chain.release();
      await queue;
      await recorder.dispose();
    },
  };
}

function spawnWorker(): Worker {
  if (__filename.endsWith('.ts')) {
    // Running from source (tests, benchmarks): load the TypeScript entry through tsx.
    const entry = path.join(__dirname, 'front-worker.ts');
    return new Worker(
      `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register(); require(${JSON.stringify(entry)});`,
      { eval: true },
    );
  }
  return new Worker(path.join(__dirname, 'tts-front-worker.js'));
}

/**
 * Idle audio threads, kept for the next job of this engine process (starting one costs tens of
 * milliseconds). They do not keep the process alive.
 */
const idle: Worker[] = [];

function takeWorker(): Worker {
  const worker = idle.pop() ?? spawnWorker();
  worker.unref();
  return worker;
}

export async function startThreadFront(settings: FrontSettings): Promise<SpeechFront> {
  const worker = takeWorker();
  let queued = 0;
  let waiting: (() => void) | undefined;
  let failure: Error | undefined;
  let done: ((summary: RecordingSummary) => void) | undefined;
  let ready: (() => void) | undefined;
  const fail = (error: Error): void => {
    failure ??= error;
    waiting?.();
    ready?.();
  };
  const onMessage = (reply: FrontReply): void => {
    if (reply.type === 'ready') ready?.();
    else if (reply.type === 'ack') {
      queued--;
      if (queued <= MAX_QUEUED / 2) waiting?.();
    } else if (reply.type === 'done') done?.(reply.summary);
    else fail(new Error(reply.message));
  };
  const onExit = (code: number): void => fail(new Error(`The audio thread stopped (exit code ${code}).`));
  worker.on('message', onMessage);
  worker.on('error', fail);
  worker.on('exit', onExit);
  const detach = (): void => {
    worker.off('message', onMessage);
    worker.off('error', fail);
    worker.off('exit', onExit);
  };
  const post = (request: FrontRequest, transfer: ArrayBuffer[] = []): void => worker.postMessage(request, transfer);
  await new Promise<void>((resolve) => {
    ready = resolve;
    post({ type: 'init', settings });
  });
  ready = undefined;
  if (failure) {
    detach();
    await worker.terminate();
    throw failure;
  }
  let batch = new Int16Array(BATCH_SAMPLES);
  let batched = 0;
  const send = (): void => {
    if (batched === 0 || failure) return;
    // The batch's own buffer is handed over without another copy.
    const full = batched === batch.length ? batch : batch.slice(0, batched);
    queued++;
    post({ type: 'samples', samples: full }, [full.buffer]);
    batch = new Int16Array(BATCH_SAMPLES);
    batched = 0;
  };
  return {
    push(samples) {
      for (let offset = 0; offset < samples.length && !failure;) {
        const take = Math.min(samples.length - offset, batch.length - batched);
        batch.set(samples.subarray(offset, offset + take), batched);
        batched += take;
        offset += take;
        if (batched === batch.length) send();
      }
    },
    async drain() {
      send();
      while (!failure && queued > MAX_QUEUED) await new Promise<void>((resolve) => (waiting = resolve));
      waiting = undefined;
      if (failure) throw failure;
    },
    async finish() {
      send();
      if (failure) throw failure;
      const summary = await new Promise<RecordingSummary>((resolve, reject) => {
        done = resolve;
        waiting = () => failure && reject(failure);
        post({ type: 'end' });
      }).catch(async (error: unknown) => {
        detach();
        await worker.terminate();
        throw error;
      });
      detach();
      idle.push(worker);
      return summary;
    },
    async abort() {
      detach();
      await worker.terminate();
    },
  };
}

/**
 * The worker-thread front, or this thread's when a worker cannot start or the configuration's `ttsThread`
 * is off (same results, only slower).
 */
export async function startSpeechFront(settings: FrontSettings): Promise<SpeechFront> {
  if (!engineConfig().ttsThread) return startLocalFront(settings);
  try {
    return await startThreadFront(settings);
  } catch {
    return startLocalFront(settings);
  }
}
