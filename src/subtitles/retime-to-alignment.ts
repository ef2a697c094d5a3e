/**
 * Re-timing a subtitle file from an alignment of its own cues: the aligned times written into the file's
 * timing fields only (ASS styles and override tags, TTML attributes and spans, SBV line ends all stay), and
 * a report of how far the cues moved. Shared by the editor's "Re-time Subtitles to Media" and `cli.js align`.
 */
import { applyEdits, retimeCues, type TextEdit } from './edits';
import { scanSubtitles, type SubtitleFormat } from './scan';
import { readScript } from './script';

export interface RetimeReport {
  /** Cues whose start or end changed by a millisecond or more. */
  moved: number;
  /** Cues in the file. */
  total: number;
  meanShiftMs: number;
  maxShiftMs: number;
}

export interface Retiming {
  edits: TextEdit[];
  report: RetimeReport;
}

/**
 * The edits that give each matched cue of `source` its aligned time. `segments` are the alignment's
 * transcript segments, one per matched cue in order; `unmatched` the cues (by number) the aligner did not
 * find, which keep their times.
 */
export function retimeFromAlignment(
  source: string,
  format: SubtitleFormat,
  segments: readonly { start: number; end: number }[],
  unmatched: readonly { index: number }[],
): Retiming {
  const skipped = new Set(unmatched.map((cue) => cue.index));
  const matchedUnits = readScript(source, format).filter((unit) => !skipped.has(unit.index));
  const times = new Map<number, { start: number; end: number }>();
  matchedUnits.forEach((unit, i) => {
    const segment = segments[i];
    if (segment)
      times.set(unit.index, { start: Math.round(segment.start * 1000), end: Math.round(segment.end * 1000) });
  });
  const before = new Map(scanSubtitles(source, format).cues.map((cue) => [cue.index, cue]));
  const shifts = [...times].map(([index, time]) => {
    const old = before.get(index);
    return old
      ? Math.max(Math.abs(Math.round(old.start * 1000) - time.start), Math.abs(Math.round(old.end * 1000) - time.end))
      : 0;
  });
  const moved = shifts.filter((shift) => shift >= 1);
  return {
    edits: retimeCues(source, format, times),
    report: {
      moved: moved.length,
      total: before.size,
      meanShiftMs: moved.length ? Math.round(moved.reduce((a, b) => a + b, 0) / moved.length) : 0,
      maxShiftMs: moved.length ? Math.max(...moved) : 0,
    },
  };
}

/** The file with the aligned times written in (see retimeFromAlignment). */
export function retimedSource(
  source: string,
  format: SubtitleFormat,
  segments: readonly { start: number; end: number }[],
  unmatched: readonly { index: number }[],
): string {
  return applyEdits(source, retimeFromAlignment(source, format, segments, unmatched).edits);
}
