/**
 * One look at a live transcription session's audio, inside the engine process: where the speech is at the
 * session's threshold (turn detection), and when asked, the words, decoded exactly as an STT job decodes a
 * file (default VAD, the compacted speech, the same recognizer and word building), so that a committed
 * utterance reads the same as that audio sent as a file. With `denoise`, GTCRN cleans the window first.
 */
import { readFile } from 'node:fs/promises';
import { SPEECH_SAMPLE_RATE } from '../media/decode-pcm16';
import { STT_BACKEND, UserFacingError, type LiveWindowResult, type LiveWindowTask, type TaskOutcome } from '../protocol';
import { buildSegments } from './build-segments';
import { findVadModel, modelsDirOf } from './model-files';
import { openRecognizer } from './recognizers/open-recognizer';
import { keepSpeech, recognize } from './run-stt';
import { denoiseSpeech } from './speech-denoise';
import { detectSpeech } from './speech-vad';
import { toWhisperLanguage } from './whisper-languages';
import { sttThreadCount } from './whisper-session';
import { segmentsFromPieces } from './word-segments';

const ignoreProgress = (): void => undefined;

export async function runLiveWindowTask(task: LiveWindowTask): Promise<TaskOutcome<LiveWindowResult>> {
  const requested = toWhisperLanguage(task.language);
  if (requested === null) throw new UserFacingError(`Whisper cannot transcribe the language "${task.language}"; use a code such as en, de or fr, or auto.`);
  const bytes = await readFile(task.pcmPath);
  const heard = new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 2));
  const durationSeconds = heard.length / SPEECH_SAMPLE_RATE;
  const threads = sttThreadCount();
  const pcm = task.denoise ? await denoiseSpeech(heard, modelsDirOf(task.modelPath), threads) : heard;

  const vadModel = await findVadModel(task.modelPath);
  const speech = vadModel ? await detectSpeech(pcm, vadModel, threads, undefined, { threshold: task.vadThreshold }) : null;
  const result: LiveWindowResult = { durationSeconds, speech, text: '', words: [], language: requested };
  if (!task.decode || pcm.length === 0) return { backend: STT_BACKEND, result };

  const recognizer = await openRecognizer(task.modelPath, requested);
  const kept = await keepSpeech(task.modelPath, pcm, threads, ignoreProgress);
  const hints = { ...(task.prompt ? { prompt: task.prompt } : {}), ...(task.preview ? { noFallback: true } : {}) };
  const recognized = await recognize(recognizer, kept, requested, threads, ignoreProgress, { hints });
  const placement = { toDecodedSeconds: kept.toSourceSeconds, offsetSeconds: 0, endSeconds: durationSeconds, punctuation: true };
  const built = recognized.timing === 'tokens'
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
