/**
 * Entry of the engine child process: runs one task at a time and answers over IPC (see protocol.ts).
 * Everything heavy (decoding, models, synthesis) happens here, never in the server's process.
 */
import type { ChildMessage, EngineResult, ParentMessage, ProgressReporter, TaskOutcome } from '../engine-api/protocol';
import { TaskYieldedError, UserFacingError } from '../engine-api/protocol';
import { checkTask } from './task-check';
import { configureEngine, engineConfigFromArgs } from '../engine-api/engine-config';

function send(message: ChildMessage): void {
  process.send?.(message);
}

/** Runs a task once the engine's own check passed: a store record edited by hand gets no further than that. */
async function runTask(
  received: unknown,
  report: ProgressReporter,
  yieldSignal: AbortSignal,
): Promise<TaskOutcome<EngineResult>> {
  if (typeof received === 'object' && received !== null && (received as { kind?: unknown }).kind === 'waveform') {
    const { checkWaveformTask, runWaveformTask } = await import('./media/waveform-task');
    return runWaveformTask(checkWaveformTask(received as Record<string, unknown>), report, yieldSignal);
  }
  if (
    typeof received === 'object' &&
    received !== null &&
    (received as { kind?: unknown }).kind === 'embed-subtitles'
  ) {
    const { checkEmbedSubtitlesTask, runEmbedSubtitlesTask } = await import('./media/embed-subtitles');
    return runEmbedSubtitlesTask(checkEmbedSubtitlesTask(received as Record<string, unknown>), report);
  }
  if (typeof received === 'object' && received !== null && (received as { kind?: unknown }).kind === 'shot-changes') {
    const { checkShotChangesTask, runShotChangesTask } = await import('./media/shot-changes-task');
    return runShotChangesTask(checkShotChangesTask(received as Record<string, unknown>), report, yieldSignal);
  }
  if (typeof received === 'object' && received !== null && (received as { kind?: unknown }).kind === 'book') {
    const { checkBookTask, runBookTask } = await import('./book/run-book');
    return runBookTask(checkBookTask(received as Record<string, unknown>), report);
  }
  if (typeof received === 'object' && received !== null && (received as { kind?: unknown }).kind === 'translate') {
    const { checkTranslateTask } = await import('./llm/check-llm-task');
    const { runTranslateTask } = await import('./llm/run-translate');
    return runTranslateTask(checkTranslateTask(received as Record<string, unknown>), report);
  }
  if (typeof received === 'object' && received !== null && (received as { kind?: unknown }).kind === 'cast-attribute') {
    const { checkCastAttributeTask, runCastAttributeTask } = await import('./llm/run-attribute');
    return runCastAttributeTask(checkCastAttributeTask(received as Record<string, unknown>), report);
  }
  if (typeof received === 'object' && received !== null && (received as { kind?: unknown }).kind === 'dub') {
    const { checkDubTask } = await import('./dub/check-dub-task');
    const { runDubTask } = await import('./dub/run-dub');
    return runDubTask(checkDubTask(received as Record<string, unknown>), report);
  }
  if (typeof received === 'object' && received !== null && (received as { kind?: unknown }).kind === 'llm-generate') {
    const { checkLlmGenerateTask } = await import('./llm/check-llm-task');
    const { runLlmGenerateTask } = await import('./llm/run-generate');
    return runLlmGenerateTask(checkLlmGenerateTask(received as Record<string, unknown>));
  }
  if (
    typeof received === 'object' &&
    received !== null &&
    (received as { kind?: unknown }).kind === 'voice-reference'
  ) {
    const { checkVoiceReferenceTask } = await import('./voice/check-voice-reference');
    const { runVoiceReferenceTask } = await import('./voice/run-voice-reference');
    return runVoiceReferenceTask(checkVoiceReferenceTask(received as Record<string, unknown>));
  }
  const task = await checkTask(received);
  if (task.kind === 'speak') {
    const { speakSentence } = await import('./tts/speak-sentence');
    return speakSentence(task);
  }
  if (task.kind === 'tts') {
    const { runTtsTask } = await import('./tts/run-tts');
    return runTtsTask(task, report);
  }
  if (task.kind === 'speaker-embedding') {
    const { runSpeakerEmbeddingTask } = await import('./stt/run-speaker-embedding');
    return runSpeakerEmbeddingTask(task);
  }
  if (task.kind === 'live-window') {
    const { runLiveWindowTask } = await import('./stt/run-live-window');
    return runLiveWindowTask(task);
  }
  if (task.kind === 'speech-regions') {
    const { runSpeechRegionsTask } = await import('./stt/run-speech-regions');
    return runSpeechRegionsTask(task, report, yieldSignal);
  }
  if (task.kind === 'align') {
    const { runAlignTask } = await import('./align/run-align');
    return runAlignTask(task, report);
  }
  const { runSttTask } = await import('./stt/run-stt');
  return runSttTask(task, report);
}

/** A write that found the disk full (or the quota or file size limit reached); the code may survive only in the message. */
const DISK_FULL = /\b(ENOSPC|EDQUOT|EFBIG)\b/;

/** Errors meant for users pass as they are; anything else is named as an engine failure, without a stack. */
function userMessage(error: unknown): string {
  if (error instanceof UserFacingError) return error.message;
  const detail = error instanceof Error ? error.message : String(error);
  if (DISK_FULL.test(`${(error as NodeJS.ErrnoException | null)?.code ?? ''} ${detail}`)) {
    return `The disk of Speech Studio's data directory is full, so the result could not be written (${detail}). Free some space and run the job again.`;
  }
  return `The speech engine failed: ${detail}`;
}

/**
 * The configuration's `slowdown` N (N > 1) makes every task take N times as long as it really did: a slow
 * machine on demand, for testing and trying routing by measured speed. The device measures the time as
 * it would any other.
 */
async function slowedDown<T>(started: number, outcome: T, slowdown: number): Promise<T> {
  if (slowdown > 1) await new Promise((resolve) => setTimeout(resolve, (slowdown - 1) * (Date.now() - started)));
  return outcome;
}

/** The warm-up (warm-up.ts), once asked for: tasks start after it. */
let warming: Promise<void> | undefined;

/** The running task and how to ask it to yield; undefined while idle. */
let running: { jobId: string; yielding: AbortController } | undefined;

// The host's configuration, built once and handed over on the command line (engine-config.ts): read here, at
// the entry, and passed on; engine code deeper down (the media toolchain, threads) reads what is set here.
const handedOver = engineConfigFromArgs(process.argv);
if (handedOver) configureEngine(handedOver);
const slowdown = handedOver?.slowdown ?? 1;

process.on('message', (message: ParentMessage) => {
  if (message?.type === 'yield') {
    // A yield for a task that has just ended is late, not wrong: its result is already on its way.
    if (running?.jobId === message.jobId) running.yielding.abort();
    return;
  }
  if (message?.type === 'warm') {
    warming ??= import('./warm-up')
      .then(({ warmUp }) => warmUp((task) => runTask(task, () => undefined, new AbortController().signal)))
      .catch((error: unknown) => console.error(`Warming up failed: ${String(error)}`));
    return;
  }
  if (message?.type !== 'run') return;
  if (running) {
    send({ type: 'failed', jobId: message.jobId, message: 'The speech engine is already running a job.' });
    return;
  }
  const { jobId, task } = message;
  const current = { jobId, yielding: new AbortController() };
  running = current;
  let last = 0;
  const report: ProgressReporter = (phase, progress) => {
    last = Math.max(last, Math.min(99, progress));
    send({ type: 'progress', jobId, phase, progress: last });
  };
  report.segments = (segments) => send({ type: 'segments', jobId, segments });
  const started = Date.now();
  // Idle again before the answer goes out, so the next task the answer lets the host send is never refused.
  const answer = (message: ChildMessage): void => {
    if (running === current) running = undefined;
    send(message);
  };
  // A task that comes while the process warms up waits for it: the two would share espeak-ng's one instance.
  (warming ?? Promise.resolve())
    .then(() => runTask(task, report, current.yielding.signal))
    .then((outcome) => slowedDown(started, outcome, slowdown))
    .then(
      (outcome) => answer({ type: 'result', jobId, backend: outcome.backend, result: outcome.result }),
      (error: unknown) => {
        if (error instanceof TaskYieldedError) return answer({ type: 'yielded', jobId });
        if (!(error instanceof UserFacingError)) console.error(error instanceof Error ? error.stack : String(error));
        answer({ type: 'failed', jobId, message: userMessage(error) });
      },
    );
});

// The parent is gone (crashed or killed): there is no one to report to, so stop, with whatever this process
// started (it leads its own process group on POSIX). Not process.exit(): it waits for the native whisper work
// to wind down, and deadlocks while a transcription runs, leaving an orphan that spins a core.
process.on('disconnect', () => {
  if (process.platform !== 'win32') {
    try {
      process.kill(-process.pid, 'SIGKILL');
    } catch {
      // Not a group leader: end just this process below.
    }
  }
  process.kill(process.pid, 'SIGKILL');
});
send({ type: 'ready', pid: process.pid });
