/**
 * One look at a live transcription session's audio, inside the engine process: where the speech is at the
 * session's threshold (turn detection), and when asked, the words, decoded exactly as an STT job decodes a
 * file (default VAD, the compacted speech, the same recognizer and word building), so that a committed
 * utterance reads the same as that audio sent as a file. With `denoise`, GTCRN cleans the window first.
 */
import { readFile } from 'node:fs/promises';
import { SPEECH_SAMPLE_RATE } from '../media/decode-pcm16';
import {
  STT_BACKEND,
  UserFacingError,
  type LiveWindowResult,
  type LiveWindowTask,
  type TaskOutcome,
} from '../../engine-api/protocol';
import { buildSegments } from './build-segments';
import { engineConfig } from '../../engine-api/engine-config';
import { findVadModel, modelsDirOf } from '../../models/model-files';
import { openRecognizer } from './recognizers/open-recognizer';
import { keepSpeech, recognize, type Speech } from './run-stt';
import type { Recognition } from './recognizers/recognizer';
import { denoiseSpeech } from './speech-denoise';
import { detectSpeech } from './speech-vad';
import { toWhisperLanguage } from '../../models/whisper-languages';
import { sttThreadCount } from './whisper-session';
import { segmentsFromPieces } from './word-segments';

const ignoreProgress = (): void => undefined;

export async function runLiveWindowTask(task: LiveWindowTask): Promise<TaskOutcome<LiveWindowResult>> {
  const requested = toWhisperLanguage(task.language);
  if (requested === null)
    throw new UserFacingError(
      `Whisper cannot transcribe the language "${task.language}"; use a code such as en, de or fr, or auto.`,
    );
  const bytes = await readFile(task.pcmPath);
  const heard = new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 2));
  const durationSeconds = heard.length / SPEECH_SAMPLE_RATE;
  const threads = sttThreadCount();
  const pcm = task.denoise ? await denoiseSpeech(heard, modelsDirOf(task.modelPath), threads) : heard;

  const vadModel = await findVadModel(task.modelPath, engineConfig());
  const speechFrom = samplesAt(task.speechFrom, pcm.length);
  const found = vadModel
    ? await detectSpeech(pcm.subarray(speechFrom), vadModel, threads, undefined, { threshold: task.vadThreshold })
    : null;
  const speech =
    found?.map((range) => ({
      start: range.start + speechFrom / SPEECH_SAMPLE_RATE,
      end: range.end + speechFrom / SPEECH_SAMPLE_RATE,
    })) ?? null;
  const result: LiveWindowResult = { durationSeconds, speech, text: '', words: [], language: requested };
  const decodeFrom = samplesAt(task.decodeFrom, pcm.length);
  const window = pcm.subarray(decodeFrom);
  if (!task.decode || window.length === 0) return { backend: STT_BACKEND, result };

  const recognizer = await openRecognizer(task.modelPath, requested);
  // A partial look decodes the window as it is: its pauses are shorter than a turn's silence, and a second
  // VAD pass over it would cost more than the decode. A committed utterance is decoded as a file job would be.
  const kept = task.preview ? asIs(window) : await keepSpeech(task.modelPath, window, threads, ignoreProgress);
  const hints = { ...(task.prompt ? { prompt: task.prompt } : {}), ...(task.preview ? { noFallback: true } : {}) };
  const recognized = capTokens(
    await recognize(recognizer, kept, requested, threads, ignoreProgress, { hints }),
    task.maxTokens,
  );
  const placement = {
    toDecodedSeconds: kept.toSourceSeconds,
    offsetSeconds: decodeFrom / SPEECH_SAMPLE_RATE,
    endSeconds: durationSeconds,
    punctuation: true,
  };
  const built =
    recognized.timing === 'tokens'
      ? segmentsFromPieces(recognized.pieces, recognized.text, placement)
      : buildSegments(recognized.pieces, placement);
  return {
    backend: recognizer.backend,
    result: {
      ...result,
      text: built.text,
      language: recognized.language,
      words: built.segments.flatMap((segment) => segment.words.map(({ start, end, text }) => ({ start, end, text }))),
    },
  };
}

/** A sample index from seconds into the window, within it. */
function samplesAt(seconds: number | undefined, length: number): number {
  return Math.min(length, Math.max(0, Math.round((seconds ?? 0) * SPEECH_SAMPLE_RATE)));
}

function asIs(samples: Int16Array): Speech {
  const seconds = samples.length / SPEECH_SAMPLE_RATE;
  return { samples, toSourceSeconds: (at) => at, stretches: [{ start: 0, end: seconds }], vadShare: 0 };
}

/**
 * Keeps the first `maxTokens` recognized pieces (tokens), and the text they make. whisper.node 1.1.3 does not
 * pass whisper.cpp's own `max_tokens` through, so the cap applies to the decoder's answer, not inside it.
 */
export function capTokens(recognition: Recognition, maxTokens: number | undefined): Recognition {
  if (maxTokens === undefined || recognition.pieces.length <= maxTokens) return recognition;
  const pieces = recognition.pieces.slice(0, maxTokens);
  return { ...recognition, pieces, text: pieces.map((piece) => piece.text).join('') };
}
