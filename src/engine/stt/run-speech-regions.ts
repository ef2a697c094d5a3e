/**
 * Runs a speech-regions task inside the engine process: decodes the whole media file and finds its
 * stretches of speech with Silero VAD (the same detector STT jobs skip silence with).
 */
import { findMediaTools } from '../media/ffmpeg';
import {
  stopIfAskedToYield,
  VAD_BACKEND,
  type ProgressReporter,
  type SpeechRegionsResult,
  type SpeechRegionsTask,
  type TaskOutcome,
} from '../../engine-api/protocol';
import { decodeInput } from './decode-input';
import { detectSpeech } from './speech-vad';
import { sttThreadCount } from './whisper-session';

/** Decoding is quick next to VAD (about 5 % of real time): it takes the first fifth of the progress. */
const DECODING_SHARE = 20;

/**
 * Runs the task; when `yieldSignal` aborts it stops with TaskYieldedError at once while decoding, or after the
 * piece of VAD in hand (up to two minutes of audio: longer than the host waits, which then ends the process).
 */
export async function runSpeechRegionsTask(
  task: SpeechRegionsTask,
  report: ProgressReporter,
  yieldSignal?: AbortSignal,
): Promise<TaskOutcome<SpeechRegionsResult>> {
  report('decoding', 0);
  const input = await decodeInput(
    task.inputPath,
    {},
    findMediaTools(),
    (fraction) => report('decoding', DECODING_SHARE * fraction),
    yieldSignal,
  );
  stopIfAskedToYield(yieldSignal);
  report('detecting_speech', DECODING_SHARE);
  const found = await detectSpeech(input.pcm, task.vadModelPath, sttThreadCount(), (fraction) => {
    stopIfAskedToYield(yieldSignal);
    report('detecting_speech', DECODING_SHARE + (100 - DECODING_SHARE) * fraction);
  });
  const round = (seconds: number): number => Math.round(seconds * 1000) / 1000;
  const regions = found
    .map((range) => ({ start: round(range.start), end: round(Math.min(range.end, input.durationSeconds)) }))
    .filter((range) => range.end > range.start)
    .sort((a, b) => a.start - b.start);
  return { backend: VAD_BACKEND, result: { durationSeconds: round(input.durationSeconds), regions } };
}
