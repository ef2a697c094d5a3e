/**
 * Cues against the shot changes of their video: a cue that starts or ends within the style's frames of a cut
 * without being on it flickers across the edit (Netflix's subtitle timing guidelines), so it is pointed at,
 * with the times that snap it to the cut, unless snapping would break another rule of the style (the
 * shortest duration, the gap to a neighbour), which the problem then says instead.
 */
import type { SubtitleStyle } from '../contract/subtitle-style';
import { retimeCues, type TextEdit } from './edits';
import { scanSubtitles, type ScannedCue, type SubtitleFormat } from './scan';

/** The shot changes of a video: the first frame of each new shot, in seconds, and the frame rate. */
export interface ShotChanges {
  framesPerSecond: number;
  changes: readonly number[];
}

/** Netflix times an out-time two frames before the cut (its minimum gap), an in-time on the cut itself. */
export const END_FRAMES_BEFORE_CUT = 2;

export interface ShotChangeProblem {
  /** The cue's position in the file, from 1. */
  cue: number;
  /** The cue's timing line, from 1. */
  line: number;
  edge: 'start' | 'end';
  /** The shot change it is near, in seconds. */
  change: number;
  /** Whole frames between the cue's edge and where it should be. */
  framesAway: number;
  /** The cue's times once snapped, or undefined when snapping would break the style (`blockedBy` says how). */
  snapped?: { start: number; end: number };
  blockedBy?: string;
  message: string;
}

const stamp = (seconds: number): string => `${seconds.toFixed(3)} s`;

/** The change nearest `time`, if any lies within `window` seconds of it. */
function nearest(changes: readonly number[], time: number, window: number): number | undefined {
  let best: number | undefined;
  for (const change of changes) {
    if (Math.abs(change - time) <= window && (best === undefined || Math.abs(change - time) < Math.abs(best - time)))
      best = change;
  }
  return best;
}

/** Why the snapped times would break the style, or undefined when they keep to it. */
function breaks(
  style: SubtitleStyle,
  snapped: { start: number; end: number },
  before: ScannedCue | undefined,
  after: ScannedCue | undefined,
): string | undefined {
  const slack = 0.0005; // times are written in whole milliseconds
  if (snapped.end - snapped.start < style.minDurationSeconds - slack) {
    return `the cue would last ${stamp(snapped.end - snapped.start)}, under the shortest duration of ${stamp(style.minDurationSeconds)}`;
  }
  if (before && snapped.start < before.end + style.minGapSeconds - slack)
    return `it would start less than ${stamp(style.minGapSeconds)} after cue ${before.index} ends`;
  if (after && snapped.end > after.start - style.minGapSeconds + slack)
    return `it would end less than ${stamp(style.minGapSeconds)} before cue ${after.index} starts`;
  return undefined;
}

/**
 * Every cue edge within `style.shotChangeFrames` frames of a shot change and not on it (a start on the cut,
 * an end on it or two frames before it), in file order.
 */
export function checkShotChanges(
  source: string,
  format: SubtitleFormat,
  style: SubtitleStyle,
  shots: ShotChanges,
): ShotChangeProblem[] {
  if (style.shotChangeFrames <= 0 || shots.changes.length === 0 || !(shots.framesPerSecond > 0)) return [];
  const frame = 1 / shots.framesPerSecond;
  const window = style.shotChangeFrames * frame + frame / 2;
  const on = (time: number, target: number): boolean => Math.abs(time - target) < frame / 2;
  const { cues } = scanSubtitles(source, format);
  const problems: ShotChangeProblem[] = [];
  cues.forEach((cue, i) => {
    const edges = [
      {
        edge: 'start' as const,
        time: cue.start,
        target: (change: number) => change,
        fine: (change: number) => on(cue.start, change),
      },
      {
        edge: 'end' as const,
        time: cue.end,
        target: (change: number) => change - END_FRAMES_BEFORE_CUT * frame,
        fine: (change: number) => on(cue.end, change) || on(cue.end, change - END_FRAMES_BEFORE_CUT * frame),
      },
    ];
    for (const { edge, time, target, fine } of edges) {
      const change = nearest(shots.changes, time, window);
      if (change === undefined || fine(change)) continue;
      const to = Math.max(0, target(change));
      const snapped = edge === 'start' ? { start: to, end: cue.end } : { start: cue.start, end: to };
      const blockedBy =
        snapped.end <= snapped.start
          ? 'the cue would end before it starts'
          : breaks(style, snapped, cues[i - 1], cues[i + 1]);
      const framesAway = Math.round(Math.abs(time - to) / frame);
      const where = time < change ? 'before' : 'after';
      const framesFromCut = Math.round(Math.abs(time - change) / frame);
      const message =
        `cue ${cue.index} ${edge === 'start' ? 'starts' : 'ends'} ${framesFromCut === 0 ? 'within a frame' : `${framesFromCut} frame${framesFromCut === 1 ? '' : 's'}`} ${where} the shot change at ${stamp(change)}` +
        (blockedBy
          ? `; snapping it to the change is not offered: ${blockedBy}`
          : `; ${edge === 'start' ? 'start it on the change' : `end it ${END_FRAMES_BEFORE_CUT} frames before the change`}`);
      problems.push({
        cue: cue.index,
        line: cue.line,
        edge,
        change,
        framesAway,
        ...(blockedBy ? { blockedBy } : { snapped }),
        message,
      });
    }
  });
  return problems;
}

/** The edit that snaps the problem's cue edge to its shot change; none when snapping is blocked. */
export function snapToShotChange(source: string, format: SubtitleFormat, problem: ShotChangeProblem): TextEdit[] {
  if (!problem.snapped) return [];
  const ms = (seconds: number): number => Math.round(seconds * 1000);
  const time = problem.edge === 'start' ? { start: ms(problem.snapped.start) } : { end: ms(problem.snapped.end) };
  return retimeCues(source, format, new Map([[problem.cue, time]]));
}
