/**
 * Live transcription sessions for other extensions (the extension API's `startLiveTranscription`): PCM in,
 * partial and final text out as VS Code events. Each session runs in the server's process on the same core as
 * GET /v1/realtime (src/realtime/direct-session.ts); this module only translates to and from its events.
 */
import * as vscode from 'vscode';
import type { DirectLiveSession, LiveSessionEnd } from '../jobs/live-recognition';
import type { ServerController } from './server-controller';

export interface LiveTranscriptionOptions {
  /** The PCM's sample rate: 16000 or 24000 (signed 16-bit little-endian mono). Default 16000. */
  sampleRate?: 16000 | 24000;
  /** A language code (en, de, …) or undefined to detect it. */
  language?: string;
  /** Spellings of names and jargon for the recognizer. */
  prompt?: string;
  /** An installed model's file name or catalog id; default: the model file jobs would use. */
  model?: string;
  /** Cut utterances at pauses (Silero VAD, needs its model), or commit each yourself with `commit()`. Default true. */
  turnDetection?: boolean | { threshold?: number; silenceMs?: number };
  /** Clean the audio with GTCRN before recognition (needs `<data-dir>/models/enhancement/gtcrn*.onnx`). Default false. */
  noiseReduction?: boolean;
}

export interface LiveTranscriptDelta {
  itemId: string;
  delta: string;
}
export interface LiveTranscriptCompleted {
  itemId: string;
  transcript: string;
  language: string;
  words: Array<{ word: string; start: number; end: number }>;
}
export interface LiveTranscriptionProblem {
  code: string;
  message: string;
  itemId?: string;
}

export interface LiveTranscriptionSession extends vscode.Disposable {
  readonly id: string;
  /** Appends audio: 16-bit little-endian mono samples at the session's rate. */
  pushPcm(samples: Int16Array | Uint8Array): void;
  /** Ends the current utterance now (what turn detection does at a pause). */
  commit(): void;
  /** Drops the audio not yet committed. */
  clear(): void;
  /** Ends the session and frees its engine work. */
  stop(): Promise<void>;
  /** Words of an utterance as soon as two decodes agree on them; never taken back. */
  readonly onDidReceiveDelta: vscode.Event<LiveTranscriptDelta>;
  /** An utterance's final text. */
  readonly onDidCompleteItem: vscode.Event<LiveTranscriptCompleted>;
  /** Speech began (`started`) or an utterance ended (`stopped`), in milliseconds of the session's audio. */
  readonly onDidDetectSpeech: vscode.Event<{ itemId: string; kind: 'started' | 'stopped'; ms: number }>;
  /** Errors and failed utterances (the session goes on), and `session_idle` when the server ended a session sent nothing for its idle limit. */
  readonly onDidFail: vscode.Event<LiveTranscriptionProblem>;
}

/** The fields of the Realtime events this wrapper reads (src/realtime/live-session.ts sends each with its type). */
type Fields = {
  type: string;
  item_id: string;
  delta: string;
  transcript: string;
  language: string;
  words?: LiveTranscriptCompleted['words'];
  error?: { code?: string; message?: string };
  audio_start_ms: number;
  audio_end_ms: number;
};

/**
 * Starts a session; rejects when no speech-to-text model is installed, an option is not accepted, or every live
 * session slot is taken (the cap counts these and the Local API's WebSocket sessions alike).
 */
export async function startLiveTranscription(
  controller: ServerController,
  options: LiveTranscriptionOptions = {},
): Promise<LiveTranscriptionSession> {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`Expected options as an object, got ${JSON.stringify(options)}`);
  const rate = options.sampleRate ?? 16_000;
  if (rate !== 16_000 && rate !== 24_000)
    throw new TypeError(`Expected sampleRate 16000 or 24000, got ${JSON.stringify(options.sampleRate)}`);
  const delta = new vscode.EventEmitter<LiveTranscriptDelta>();
  const completed = new vscode.EventEmitter<LiveTranscriptCompleted>();
  const speech = new vscode.EventEmitter<{ itemId: string; kind: 'started' | 'stopped'; ms: number }>();
  const failed = new vscode.EventEmitter<LiveTranscriptionProblem>();
  const emitters = [delta, completed, speech, failed];
  let lastError: string | undefined;
  const onEvent = (received: Record<string, unknown> & { type: string }): void => {
    const event = received as Fields;
    switch (event.type) {
      case 'conversation.item.input_audio_transcription.delta':
        return delta.fire({ itemId: event.item_id, delta: event.delta });
      case 'conversation.item.input_audio_transcription.completed':
        return completed.fire({
          itemId: event.item_id,
          transcript: event.transcript,
          language: event.language,
          words: event.words ?? [],
        });
      case 'conversation.item.input_audio_transcription.failed':
        return failed.fire({
          itemId: event.item_id,
          code: event.error?.code ?? 'transcription_failed',
          message: event.error?.message ?? 'The utterance could not be transcribed.',
        });
      case 'input_audio_buffer.speech_started':
        return speech.fire({ itemId: event.item_id, kind: 'started', ms: event.audio_start_ms });
      case 'input_audio_buffer.speech_stopped':
        return speech.fire({ itemId: event.item_id, kind: 'stopped', ms: event.audio_end_ms });
      case 'error':
        lastError = event.error?.message;
        return failed.fire({
          code: event.error?.code ?? 'error',
          message: event.error?.message ?? 'Live transcription failed.',
        });
      default:
        return undefined;
    }
  };
  const server = await controller.ready();
  let stopped = false;
  // The server ends a session sent nothing for its idle limit: later pushes throw, as after stop().
  const ended = (end: LiveSessionEnd): void => {
    if (stopped) return;
    stopped = true;
    failed.fire(end);
    for (const emitter of emitters) emitter.dispose();
  };
  // Past the live session cap, shared with GET /v1/realtime, this rejects with LiveSessionLimitError (code session_limit_reached).
  const session: DirectLiveSession = await server.openLiveSession(onEvent, ended);
  const turn = options.turnDetection ?? true;
  await session.send({
    type: 'session.update',
    session: {
      type: 'transcription',
      audio: {
        input: {
          format: { type: 'audio/pcm', rate },
          transcription: {
            ...(options.model ? { model: options.model } : {}),
            ...(options.language ? { language: options.language } : {}),
            ...(options.prompt ? { prompt: options.prompt } : {}),
          },
          turn_detection:
            turn === false
              ? null
              : {
                  type: 'server_vad',
                  ...(typeof turn === 'object' && turn.threshold !== undefined ? { threshold: turn.threshold } : {}),
                  ...(typeof turn === 'object' && turn.silenceMs !== undefined
                    ? { silence_duration_ms: turn.silenceMs }
                    : {}),
                },
          noise_reduction: options.noiseReduction ? { type: 'near_field' } : null,
        },
      },
    },
  });
  if (lastError !== undefined) {
    await session.close();
    for (const emitter of emitters) emitter.dispose();
    throw new Error(lastError);
  }
  const send = (event: Record<string, unknown> & { type: string }): void => {
    if (stopped) throw new Error(`The live transcription session ${session.id} has stopped.`);
    void session.send(event);
  };
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await session.close();
    for (const emitter of emitters) emitter.dispose();
  };
  return {
    id: session.id,
    pushPcm(samples) {
      if (!(samples instanceof Int16Array) && !(samples instanceof Uint8Array))
        throw new TypeError(
          `Expected an Int16Array or Uint8Array of PCM, got ${Object.prototype.toString.call(samples)}`,
        );
      if (samples.byteLength === 0) return;
      send({
        type: 'input_audio_buffer.append',
        audio: Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).toString('base64'),
      });
    },
    commit: () => send({ type: 'input_audio_buffer.commit' }),
    clear: () => send({ type: 'input_audio_buffer.clear' }),
    stop,
    dispose: () => void stop(),
    onDidReceiveDelta: delta.event,
    onDidCompleteItem: completed.event,
    onDidDetectSpeech: speech.event,
    onDidFail: failed.event,
  };
}
