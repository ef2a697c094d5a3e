/**
 * The `duration` option: how much to stretch the recorded speech so that it lasts the target. The total
 * change of pace (the request's speed times this stretch) stays within the API's speed limits, 0.5 to 2;
 * when the target is out of reach the result says how close it got.
 */

export const MIN_TOTAL_SPEED = 0.5;
export const MAX_TOTAL_SPEED = 2;

export interface DurationReport {
  /** Speed-up applied to the recording (0.8 = 25 % longer). */
  stretchFactor: number;
  /** Exact output length in recording samples, when the target is reachable. */
  targetSamples?: number;
  summary: { targetSeconds: number; naturalSeconds: number; stretchFactor: number; reachedTarget: boolean };
}

export function planDuration(
  samples: number,
  sampleRate: number,
  targetSeconds: number,
  speed: number,
): DurationReport {
  if (!(targetSeconds > 0)) throw new TypeError(`Expected a positive duration, got ${targetSeconds}`);
  const natural = samples / sampleRate;
  const wanted = natural / targetSeconds;
  const lowest = MIN_TOTAL_SPEED / speed;
  const highest = MAX_TOTAL_SPEED / speed;
  const applied = Math.min(highest, Math.max(lowest, wanted));
  const reachedTarget = applied === wanted;
  // Within half a percent the stretch is not worth its artefacts: cutting or padding silence is enough.
  const stretchFactor = reachedTarget && Math.abs(wanted - 1) < 0.005 ? 1 : applied;
  return {
    stretchFactor,
    targetSamples: reachedTarget ? Math.round(targetSeconds * sampleRate) : undefined,
    summary: {
      targetSeconds,
      naturalSeconds: Math.round(natural * 1000) / 1000,
      stretchFactor: Math.round(stretchFactor * 10_000) / 10_000,
      reachedTarget,
    },
  };
}
