/**
 * The one way live transcription sessions reach the engine: each look at a session's audio is written to
 * a temporary file and run as a `live-window` task in an engine process, never on the server's event loop.
 * At most `concurrency` looks run at once (each holds an engine process with its model loaded), first come
 * first served across sessions.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LiveWindowResult, LiveWindowTask } from '../engine/protocol';
import type { EngineHost } from './engine-host';

export type LiveLook = Omit<LiveWindowTask, 'kind' | 'pcmPath'>;

export interface LiveRecognition {
  /** A folder for one session's windows, removed by `release`. */
  openSession(): Promise<LiveSessionFiles>;
  /** Where the speech is in `pcm` (16 kHz mono) and, with `decode`, what was said. */
  look(files: LiveSessionFiles, pcm: Int16Array, look: LiveLook, signal: AbortSignal): Promise<LiveWindowResult>;
}

export interface LiveSessionFiles {
  readonly dir: string;
  release(): Promise<void>;
}

export function liveRecognition(engine: EngineHost, dataDir: string, concurrency = Math.max(1, Math.min(2, os.availableParallelism()))): LiveRecognition {
  const root = path.join(dataDir, 'live');
  const waiting: Array<() => void> = [];
  let running = 0;
  const turn = async (signal: AbortSignal): Promise<void> => {
    if (running < concurrency) {
      running += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const go = (): void => {
        signal.removeEventListener('abort', gone);
        resolve();
      };
      const gone = (): void => {
        waiting.splice(waiting.indexOf(go), 1);
        reject(signal.reason);
      };
      waiting.push(go);
      signal.addEventListener('abort', gone, { once: true });
    });
    running += 1;
  };
  const done = (): void => {
    running -= 1;
    waiting.shift()?.();
  };

  return {
    async openSession() {
      const dir = path.join(root, randomUUID());
      await mkdir(dir, { recursive: true });
      return { dir, release: () => rm(dir, { recursive: true, force: true }) };
    },
    async look(files, pcm, look, signal) {
      await turn(signal);
      const pcmPath = path.join(files.dir, `${randomUUID()}.pcm`);
      try {
        await writeFile(pcmPath, new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
        const task: LiveWindowTask = { kind: 'live-window', pcmPath, ...look };
        // A live look is `interactive` work: the engine scheduler runs it ahead of analysis and batch jobs.
        const outcome = await engine.run(`live-${randomUUID()}`, task, { signal, priority: 'interactive', onProgress: () => undefined });
        return outcome.result;
      } finally {
        done();
        await rm(pcmPath, { force: true });
      }
    },
  };
}

/** A live session opened in the server's process (src/realtime/direct-session.ts), for doors beside the server. */
export interface DirectLiveSession {
  readonly id: string;
  /** One OpenAI Realtime client event (session.update, input_audio_buffer.append/commit/clear); handled after the ones before it. */
  send(event: Record<string, unknown> & { type: string }): Promise<void>;
  /** Ends the session: the engine look in flight is abandoned and its files removed. */
  close(): Promise<void>;
}

/** Opens one; server events (OpenAI Realtime shape) go to `onEvent`. */
export type OpenDirectLiveSession = (onEvent: (event: Record<string, unknown> & { type: string }) => void) => Promise<DirectLiveSession>;
