/**
 * The one way live transcription sessions reach the engine: each look at a session's audio is written to
 * a temporary file and run as a `live-window` task in an engine process, never on the server's event loop.
 * Looks wait in the engine scheduler's interactive lane, one running at a time (each holds an engine process
 * with its model loaded): a committed utterance's decode ranks before looks at uncommitted audio, and looks of
 * one rank run in the order asked (src/jobs/task-places.ts). A look's audio is taken when its turn comes, so a
 * look that waited covers the newest audio, and the session knows how many others wait (to skip a partial
 * decode under load). It also holds the rules every live session follows, whichever door opened it
 * (the WebSocket, the extension API): the cap on sessions open at once, and the idle limit.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../contract/errors';
import type { LiveWindowResult, LiveWindowTask } from '../engine-api/protocol';
import type { EngineHost } from './engine-host';

/** What live recognition needs of the engine host. */
export type LiveEngine = Pick<EngineHost, 'runWhenReady' | 'waitingOf'>;

export type LiveLook = Omit<LiveWindowTask, 'kind' | 'pcmPath'>;

/** What a look sends to the engine: 16 kHz mono samples and the task's settings. */
export interface LiveLookPlan {
  pcm: Int16Array;
  look: LiveLook;
}

/** Called when the look's turn comes: `waiting` is how many other looks wait behind it, from every session. */
export type PlanLook = (load: { waiting: number }) => LiveLookPlan;

/** `final`: a committed utterance's decode, ahead of every look at uncommitted audio. */
export type LookRank = 'final' | 'look';

export interface LiveSessionLimits {
  /** Live sessions open at once over every door; one more is refused with LiveSessionLimitError (default 8). */
  maxSessions?: number;
  /** A session with no client event for this long is ended through its `onIdle` (default 60 s). */
  idleMs?: number;
}

/** Past the cap: each door tells its client in its own way (an error event and close code 1013, a rejected promise). */
export class LiveSessionLimitError extends ApiError {
  declare readonly code: 'session_limit_reached';

  constructor(readonly maxSessions: number) {
    super(
      'session_limit_reached',
      `This server runs ${maxSessions} live transcription sessions at most; try again when one ends.`,
    );
    this.name = 'LiveSessionLimitError';
  }
}

export interface LiveRecognition {
  readonly limits: Required<LiveSessionLimits>;
  /** Sessions open now, from every door. */
  readonly openSessions: number;
  /**
   * Opens a session: takes one of the `maxSessions` slots at once (before any await, so that sessions opened
   * together are counted in order), or rejects with LiveSessionLimitError. `onIdle` is called when the session
   * has not been `touch`ed for `idleMs`; the door then ends it. `release` frees the slot, the timer and the files.
   */
  openSession(onIdle: () => void): Promise<LiveSessionFiles>;
  /** Where the speech is in the planned audio and, with `decode`, what was said; `plan` runs when the look's turn comes. */
  look(files: LiveSessionFiles, plan: PlanLook, signal: AbortSignal, rank?: LookRank): Promise<LiveWindowResult>;
}

export interface LiveSessionFiles {
  readonly dir: string;
  /** The client did something: the idle limit starts again. */
  touch(): void;
  release(): Promise<void>;
}

export function liveRecognition(engine: LiveEngine, dataDir: string, limits: LiveSessionLimits = {}): LiveRecognition {
  const maxSessions = limits.maxSessions ?? 8;
  const idleMs = limits.idleMs ?? 60_000;
  if (!Number.isInteger(maxSessions) || maxSessions < 1)
    throw new TypeError(`Expected maxSessions to be a whole number ≥ 1, got ${maxSessions}`);
  if (!Number.isFinite(idleMs) || idleMs <= 0)
    throw new TypeError(`Expected idleMs to be a positive number, got ${idleMs}`);
  const root = path.join(dataDir, 'live');
  let openSessions = 0;

  return {
    limits: { maxSessions, idleMs },
    get openSessions() {
      return openSessions;
    },
    async openSession(onIdle) {
      if (openSessions >= maxSessions) throw new LiveSessionLimitError(maxSessions);
      openSessions += 1;
      let idle: NodeJS.Timeout | undefined;
      let released = false;
      const touch = (): void => {
        if (released) return;
        clearTimeout(idle);
        idle = setTimeout(onIdle, idleMs);
      };
      const release = async (): Promise<void> => {
        if (released) return;
        released = true;
        clearTimeout(idle);
        openSessions -= 1;
        await rm(dir, { recursive: true, force: true });
      };
      const dir = path.join(root, randomUUID());
      try {
        await mkdir(dir, { recursive: true });
      } catch (error) {
        await release();
        throw error;
      }
      touch();
      return { dir, touch, release };
    },
    async look(files, plan, signal, rank = 'look') {
      const pcmPath = path.join(files.dir, `${randomUUID()}.pcm`);
      // Its place in the interactive lane: a committed utterance decodes the words without `preview`.
      const placing =
        rank === 'final'
          ? { kind: 'live-window' as const, decode: true }
          : { kind: 'live-window' as const, preview: true };
      try {
        const outcome = await engine.runWhenReady(
          `live-${randomUUID()}`,
          placing,
          async (): Promise<LiveWindowTask> => {
            const { pcm, look } = plan({ waiting: engine.waitingOf('live-window') });
            await writeFile(pcmPath, new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
            return { kind: 'live-window', pcmPath, ...look };
          },
          { signal, onProgress: () => undefined },
        );
        return outcome.result;
      } finally {
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

/** Why the server ended a direct session by itself (the idle limit). */
export interface LiveSessionEnd {
  code: 'session_idle';
  message: string;
}

/**
 * Opens one; server events (OpenAI Realtime shape) go to `onEvent`, and `onEnded` hears when the server ends
 * it. Rejects with LiveSessionLimitError when every session slot is taken.
 */
export type OpenDirectLiveSession = (
  onEvent: (event: Record<string, unknown> & { type: string }) => void,
  onEnded?: (end: LiveSessionEnd) => void,
) => Promise<DirectLiveSession>;
