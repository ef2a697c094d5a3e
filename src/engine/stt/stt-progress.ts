import type { EnginePhase, ProgressReporter } from '../../engine-api/protocol';

/** Where each step of an STT job sits on the job's 0–100 progress scale. */
export const STT_PROGRESS_RANGES = {
  decoding: [0, 10],
  loading_model: [10, 15],
  detecting_language: [15, 15],
  transcribing: [15, 90],
  diarizing: [90, 95],
  postprocessing: [95, 99],
} as const satisfies Partial<Record<EnginePhase, readonly [number, number]>>;

export type SttStep = keyof typeof STT_PROGRESS_RANGES;

/** Reports a step's own progress (0–1); the job progress only rises and stays below 100. */
export type StepReporter = (step: SttStep, fraction: number) => void;

/**
 * Maps each step's 0–1 progress into its range and forwards it, only when the phase changes or the whole
 * percentage rises, so chatty sources (ffmpeg chunks, whisper callbacks) do not flood the IPC channel.
 */
export function createSttProgress(report: ProgressReporter): StepReporter {
  let lastPhase: EnginePhase | undefined;
  let lastProgress = -1;
  return (step, fraction) => {
    const [from, to] = STT_PROGRESS_RANGES[step];
    const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
    const progress = Math.max(lastProgress, Math.min(99, Math.floor(from + (to - from) * clamped)));
    if (step === lastPhase && progress === lastProgress) return;
    lastPhase = step;
    lastProgress = progress;
    report(step, progress);
  };
}
