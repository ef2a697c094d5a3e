/**
 * Live captions into a subtitle file (`cli.js captions`): audio captured by ffmpeg (a microphone, the
 * system's output, or a file read at its real pace) goes through the same live session as GET /v1/realtime
 * (src/realtime/direct-session.ts), and each finished utterance is appended to the SRT or WebVTT file as one
 * cue (src/subtitles/caption-file.ts), so the file can be opened and edited while it grows. Stopping (Ctrl+C,
 * or the end of a file) commits what was still being said and waits for its cue: nothing heard is lost. A file
 * that already holds cues is resumed: new cues continue after its last one.
 */
import { spawn } from 'node:child_process';
import { appendFile, readFile } from 'node:fs/promises';
import type { EngineConfig } from '../engine-api/engine-config';
import { mediaToolsFor } from '../engine-api/media-toolchain';
import { liveRecognition, type DirectLiveSession } from '../jobs/live-recognition';
import { directLiveSessions } from '../realtime/direct-session';
import { captionFormatOf, captionText, lastCueEnd, type Caption } from '../subtitles/caption-file';
import type { Logger } from '../util/log';
import { openCliJobCore } from './cli-job-core';

const RATE = 16_000;
/** Audio goes to the session in pieces of this many bytes (100 ms), as a Realtime client sends it. */
const CHUNK_BYTES = (RATE / 10) * 2;
/** How long stopping waits for the utterances still being decoded. */
const FINISH_MS = 120_000;

/** Where the audio comes from: a file read at its real pace, or one of ffmpeg's capture devices. */
export type CaptionSource = { file: string } | { device: string; format: string };

export interface LiveCaptionsOptions {
  dataDir: string;
  engineConfig: EngineConfig;
  engineWorkerPath?: string;
  out: string;
  source: CaptionSource;
  language?: string;
  /** Turn detection's silence, in milliseconds (default 500). */
  silenceMs?: number;
  log: Logger;
  /** Aborting stops the capture; the utterance in progress still becomes a cue. */
  signal: AbortSignal;
  onCaption?(caption: Caption): void;
  /** The first audio arrived: captions' times count from here. */
  onListening?(): void;
}

/** ffmpeg's capture input for this platform's default microphone, as `-f FORMAT -i DEVICE`. */
export function defaultMicrophone(platform = process.platform): { device: string; format: string } {
  if (platform === 'darwin') return { format: 'avfoundation', device: ':0' };
  if (platform === 'win32') return { format: 'dshow', device: 'audio=default' };
  return { format: 'pulse', device: 'default' };
}

function ffmpegInput(source: CaptionSource): string[] {
  return 'file' in source ? ['-re', '-i', source.file] : ['-f', source.format, '-i', source.device];
}

/** Runs until the source ends or `signal` aborts; answers how many cues were appended. */
export async function runLiveCaptions(options: LiveCaptionsOptions): Promise<{ cues: number }> {
  const format = captionFormatOf(options.out);
  if (!format) throw new Error(`Captions are written as .srt or .vtt, not "${options.out}".`);
  const tools = mediaToolsFor(options.engineConfig);
  const offset = lastCueEnd(await readFile(options.out, 'utf8').catch(() => ''));
  const core = await openCliJobCore({
    dataDir: options.dataDir,
    log: options.log,
    engineConfig: options.engineConfig,
    ...(options.engineWorkerPath ? { engineWorkerPath: options.engineWorkerPath } : {}),
  });
  const recognition = liveRecognition(core.engine, options.dataDir, { idleMs: FINISH_MS });
  const open = directLiveSessions({ dataDir: options.dataDir }, recognition);
  const pending = new Set<string>();
  const starts = new Map<string, number>();
  let cues = 0;
  let writing = Promise.resolve();
  let settled: () => void = () => undefined;
  /** The session's first error event, if any: it ends the run once the cues in progress are written. */
  const problem: { failure?: Error } = {};
  const throwFailure = (): void => {
    if (problem.failure) throw problem.failure;
  };
  const append = (caption: Caption): void => {
    writing = writing.then(async () => {
      const existing = await readFile(options.out, 'utf8').catch(() => '');
      await appendFile(options.out, captionText(format, existing, caption), 'utf8');
      cues += 1;
      options.onCaption?.(caption);
    });
  };
  const onEvent = (event: Record<string, unknown> & { type: string }): void => {
    const item = typeof event.item_id === 'string' ? event.item_id : '';
    if (event.type === 'input_audio_buffer.speech_started' || event.type === 'input_audio_buffer.committed') {
      pending.add(item);
      if (typeof event.audio_start_ms === 'number') starts.set(item, event.audio_start_ms / 1000);
    } else if (event.type === 'conversation.item.input_audio_transcription.completed') {
      const words = (event.words as Array<{ start: number; end: number }> | undefined) ?? [];
      const text = typeof event.transcript === 'string' ? event.transcript.trim() : '';
      if (text)
        append({
          start: offset + (words[0]?.start ?? starts.get(item) ?? 0),
          end: offset + (words.at(-1)?.end ?? starts.get(item) ?? 0),
          text,
        });
      pending.delete(item);
    } else if (event.type === 'conversation.item.input_audio_transcription.failed') {
      options.log.warn(`An utterance could not be transcribed: ${JSON.stringify(event.error)}`);
      pending.delete(item);
    } else if (event.type === 'error') {
      const error = event.error as { code?: string; message?: string };
      if (error.code !== 'input_audio_buffer_commit_empty')
        problem.failure ??= new Error(error.message ?? JSON.stringify(error));
    }
    if (pending.size === 0) settled();
  };
  let session: DirectLiveSession | undefined;
  try {
    session = await open(onEvent);
    await session.send({
      type: 'session.update',
      session: {
        type: 'transcription',
        audio: {
          input: {
            format: { type: 'audio/pcm', rate: RATE },
            transcription: { model: 'whisper-1', ...(options.language ? { language: options.language } : {}) },
            turn_detection: { type: 'server_vad', silence_duration_ms: options.silenceMs ?? 500 },
          },
        },
      },
    });
    throwFailure();
    let listening = false;
    await capture(tools.ffmpeg, options.source, options.signal, (chunk) => {
      if (!listening) options.onListening?.();
      listening = true;
      void session!.send({ type: 'input_audio_buffer.append', audio: chunk.toString('base64') });
    });
    // Whatever is not yet committed (speech turn detection has not looked at yet, too) is decoded as the last
    // utterance; its decode runs VAD as a file job's does, so trailing silence gives no text and no cue.
    await session.send({ type: 'input_audio_buffer.commit' });
    await new Promise<void>((resolve) => {
      settled = resolve;
      if (pending.size === 0) resolve();
      setTimeout(resolve, FINISH_MS).unref();
    });
    await writing;
    throwFailure();
    return { cues };
  } finally {
    await session?.close().catch(() => undefined);
    await core.close();
  }
}

/** Runs ffmpeg on the source, handing 100 ms pieces of 16 kHz mono PCM to `onChunk`, until it ends or `signal` aborts. */
function capture(
  ffmpeg: string,
  source: CaptionSource,
  signal: AbortSignal,
  onChunk: (chunk: Buffer) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      ffmpeg,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-nostdin',
        ...ffmpegInput(source),
        '-vn',
        '-f',
        's16le',
        '-ac',
        '1',
        '-ar',
        String(RATE),
        'pipe:1',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let held = Buffer.alloc(0);
    let errors = '';
    child.stdout.on('data', (data: Buffer) => {
      held = Buffer.concat([held, data]);
      while (held.length >= CHUNK_BYTES) {
        onChunk(held.subarray(0, CHUNK_BYTES));
        held = held.subarray(CHUNK_BYTES);
      }
    });
    child.stderr.on('data', (data: Buffer) => {
      errors = (errors + data.toString()).slice(-2000);
    });
    const stop = (): void => void child.kill('SIGTERM');
    signal.addEventListener('abort', stop, { once: true });
    child.once('error', (error) => {
      signal.removeEventListener('abort', stop);
      reject(new Error(`ffmpeg could not be started (${error.message}); captions need the system's ffmpeg.`));
    });
    child.once('close', (code) => {
      signal.removeEventListener('abort', stop);
      if (held.length > 1) onChunk(held.subarray(0, held.length & ~1));
      if (code === 0 || signal.aborted) resolve();
      else reject(new Error(`ffmpeg ended with code ${code}: ${errors.trim() || 'no message'}`));
    });
  });
}
