/**
 * Fixes that do not create problems silently: for one problem, every way to fix it (edits.ts), each tried on
 * the text and checked again, ranked so a variant that removes the problem and creates none comes first,
 * each with a before → after summary an editor can preview; and "Fix Common Problems", which applies the
 * safe variant of every fixable problem in turn and says what it changed and what is left.
 */
import { checkSubtitles, displayText, type ProblemKind, type SubtitleProblem } from './check';
import { applyEdits, quickFix, retimeCues, SubtitleEditError, type QuickFix, type TextEdit } from './edits';
import { scanSubtitles, type ScannedCue, type SubtitleFormat } from './scan';
import type { SubtitleStyle } from '../contract/subtitle-style';

export type FixName = QuickFix | 'push-forward' | 'meet-halfway' | 'extend-to-read';

/** The ways to fix each kind of problem, in the order preferred when several create no new problem. */
export const FIXES_FOR: Partial<Record<ProblemKind, readonly FixName[]>> = {
  'line-too-long': ['rebalance', 'split'],
  'too-many-lines': ['rebalance', 'split'],
  'too-short': ['extend', 'merge'],
  'too-long': ['split'],
  'reading-speed': ['extend-to-read'],
  overlap: ['pull-back', 'meet-halfway', 'push-forward'],
  'gap-too-small': ['pull-back', 'meet-halfway', 'push-forward'],
};

export const FIX_TITLES: Record<FixName, (cue: number) => string> = {
  rebalance: (cue) => `Rebalance the lines of cue ${cue}`,
  split: (cue) => `Split cue ${cue} in two`,
  merge: (cue) => `Merge cue ${cue} with the next`,
  extend: (cue) => `Extend cue ${cue} into the following gap`,
  'extend-to-read': (cue) => `Give cue ${cue} the time to read it`,
  'pull-back': (cue) => `End cue ${cue - 1} before cue ${cue} starts`,
  'push-forward': (cue) => `Start cue ${cue} after cue ${cue - 1} ends`,
  'meet-halfway': (cue) => `Move cues ${cue - 1} and ${cue} apart halfway`,
};

export interface FixVariant {
  fix: FixName;
  title: string;
  /** What changes, before → after: "cue 3 ends 00:00:14.000 → 00:00:13.420". */
  change: string;
  edits: TextEdit[];
  /** Whether the problem it was offered on is gone afterwards. */
  solves: boolean;
  /** Problems the text has afterwards that it did not have before (the check's messages say what). */
  created: SubtitleProblem[];
}

const ms = (seconds: number): number => Math.round(seconds * 1000);

function clock(totalMs: number): string {
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  return `${pad(Math.floor(totalMs / 3_600_000))}:${pad(Math.floor(totalMs / 60_000) % 60)}:${pad(Math.floor(totalMs / 1000) % 60)}.${pad(totalMs % 1000, 3)}`;
}

const wordsOf = (cue: ScannedCue): string =>
  cue.lines.map(displayText).join(' ').split(/\s+/).filter(Boolean).join(' ');

/** A problem told apart from the others by what it is about, not by cue number (a split renumbers the cues after it). */
function problemKeys(source: string, format: SubtitleFormat, problems: readonly SubtitleProblem[]): string[] {
  const { cues } = scanSubtitles(source, format);
  return problems.map((p) => `${p.kind}\0${p.cue > 0 ? wordsOf(cues[p.cue - 1]) : p.message}`);
}

/**
 * The problems of `after` that `before` did not have (counted, so two same-text cues stay two). A problem of
 * a cue split from or merged into a cue that had the same kind of problem is not new: it was carried over.
 */
export function createdProblems(
  before: string,
  after: string,
  format: SubtitleFormat,
  style: SubtitleStyle,
): SubtitleProblem[] {
  const old = problemKeys(before, format, checkSubtitles(before, format, style));
  const had = new Map<string, number>();
  for (const key of old) had.set(key, (had.get(key) ?? 0) + 1);
  const now = checkSubtitles(after, format, style);
  const keys = problemKeys(after, format, now);
  const carried = (key: string): boolean => {
    const [kind, words] = key.split('\0');
    return (
      words !== '' &&
      old.some((o) => {
        const [oldKind, oldWords] = o.split('\0');
        return oldKind === kind && oldWords !== '' && (oldWords.includes(words) || words.includes(oldWords));
      })
    );
  };
  return now.filter((_, i) => {
    const left = had.get(keys[i]) ?? 0;
    had.set(keys[i], left - 1);
    return left <= 0 && !carried(keys[i]);
  });
}

/** The edits of a timing-only fix on cue `index` (from 1) and the one before it; empty when it does not apply. */
function retimeFix(
  fix: 'push-forward' | 'meet-halfway' | 'extend-to-read',
  source: string,
  format: SubtitleFormat,
  style: SubtitleStyle,
  index: number,
): TextEdit[] {
  const { cues } = scanSubtitles(source, format);
  const cue = cues[index - 1];
  if (!cue) throw new SubtitleEditError(`there is no cue ${index}`);
  const gap = ms(style.minGapSeconds);
  if (fix === 'extend-to-read') {
    const characters = cue.lines.map(displayText).reduce((sum, line) => sum + Array.from(line).length, 0);
    const next = cues[index];
    // One ms under what rounds to the limit would still read as too fast: round up to a whole 10 ms.
    let end = ms(cue.start) + Math.ceil(((characters / style.maxCharsPerSecond) * 1000) / 10) * 10;
    end = Math.min(end, ms(cue.start) + ms(style.maxDurationSeconds));
    if (next) end = Math.min(end, ms(next.start) - gap);
    return end > ms(cue.end) ? retimeCues(source, format, new Map([[index, { end }]])) : [];
  }
  const previous = cues[index - 2];
  if (!previous) throw new SubtitleEditError(`there is no cue before cue ${index}`);
  if (fix === 'push-forward') {
    const start = ms(previous.end) + gap;
    return start < ms(cue.end) && start > ms(cue.start)
      ? retimeCues(source, format, new Map([[index, { start }]]))
      : [];
  }
  const middle = Math.round((ms(previous.end) + ms(cue.start)) / 2);
  const end = middle - Math.floor(gap / 2);
  const start = end + gap;
  if (end <= ms(previous.start) || start >= ms(cue.end)) return [];
  return retimeCues(
    source,
    format,
    new Map([
      [index - 1, { end }],
      [index, { start }],
    ]),
  );
}

function editsOf(fix: FixName, source: string, format: SubtitleFormat, style: SubtitleStyle, cue: number): TextEdit[] {
  try {
    if (fix === 'push-forward' || fix === 'meet-halfway' || fix === 'extend-to-read')
      return retimeFix(fix, source, format, style, cue);
    return quickFix(fix, source, format, style, cue);
  } catch (error) {
    if (error instanceof SubtitleEditError) return []; // a merge of the last cue: not offered
    throw error;
  }
}

/** Before → after for each cue whose times or text changed (cues matched by position up to the first split or merge). */
export function describeChange(before: string, after: string, format: SubtitleFormat): string {
  const old = scanSubtitles(before, format).cues;
  const now = scanSubtitles(after, format).cues;
  if (now.length !== old.length) {
    const at = old.findIndex((cue, i) => !now[i] || wordsOf(cue) !== wordsOf(now[i]));
    const cue = at + 1;
    return now.length > old.length
      ? `cue ${cue} becomes cues ${cue} and ${cue + 1}`
      : `cues ${cue} and ${cue + 1} become cue ${cue}`;
  }
  const parts: string[] = [];
  old.forEach((cue, i) => {
    const moved = (what: string, from: number, to: number): void => {
      if (ms(from) !== ms(to)) parts.push(`cue ${cue.index} ${what} ${clock(ms(from))} → ${clock(ms(to))}`);
    };
    moved('starts', cue.start, now[i].start);
    moved('ends', cue.end, now[i].end);
    if (cue.lines.join('\n') !== now[i].lines.join('\n'))
      parts.push(`cue ${cue.index} reads "${now[i].lines.map(displayText).join(' / ')}"`);
  });
  return parts.join('; ') || 'no change';
}

const stillThere = (
  after: string,
  format: SubtitleFormat,
  style: SubtitleStyle,
  kind: ProblemKind,
  cueWords: string,
): boolean => {
  const problems = checkSubtitles(after, format, style).filter((p) => p.kind === kind);
  return problemKeys(after, format, problems).some((key) => key === `${kind}\0${cueWords}`);
};

/**
 * Every way to fix `problem`, best first: those that remove it and create no new problem (in the preferred
 * order), then those that remove it but create problems (fewest first), then those that leave it.
 */
export function fixVariants(
  source: string,
  format: SubtitleFormat,
  style: SubtitleStyle,
  problem: Pick<SubtitleProblem, 'kind' | 'cue'>,
): FixVariant[] {
  const names = FIXES_FOR[problem.kind] ?? [];
  const cue = scanSubtitles(source, format).cues[problem.cue - 1];
  if (!cue || names.length === 0) return [];
  const variants: FixVariant[] = [];
  for (const fix of names) {
    const edits = editsOf(fix, source, format, style, problem.cue);
    if (edits.length === 0) continue;
    const after = applyEdits(source, edits);
    variants.push({
      fix,
      title: FIX_TITLES[fix](problem.cue),
      change: describeChange(source, after, format),
      edits,
      solves: !stillThere(after, format, style, problem.kind, wordsOf(cue)),
      created: createdProblems(source, after, format, style),
    });
  }
  const rank = (v: FixVariant): number => (v.solves ? 0 : 2) + (v.created.length > 0 ? 1 : 0);
  return variants
    .map((v, order) => ({ v, order }))
    .sort((a, b) => rank(a.v) - rank(b.v) || a.v.created.length - b.v.created.length || a.order - b.order)
    .map(({ v }) => v);
}

/** A variant is safe when it removes its problem and creates none. */
export const isSafe = (variant: FixVariant): boolean => variant.solves && variant.created.length === 0;

export interface CommonFixesPlan {
  /** The safe fixes made, in order, each on the text the ones before it left. */
  steps: Array<{ problem: SubtitleProblem; title: string; change: string }>;
  /** The whole change as one edit (empty when nothing changes), for one undo step. */
  edits: TextEdit[];
  text: string;
  /** The problems the fixed text still has. */
  remaining: SubtitleProblem[];
  /** Of those, the ones a fix exists for but every fix would create a problem: what the best one would leave. */
  unsafe: Array<{ problem: SubtitleProblem; title: string; wouldCreate: string[] }>;
}

/**
 * Applies the safe fix of every fixable problem (of `kinds`, or all), re-checking after each, and says what
 * is left. A problem no fix removes without creating another is left as it is and listed in `unsafe`.
 */
export function planCommonFixes(
  source: string,
  format: SubtitleFormat,
  style: SubtitleStyle,
  kinds?: readonly ProblemKind[],
): CommonFixesPlan {
  const wanted = (p: SubtitleProblem): boolean =>
    FIXES_FOR[p.kind] !== undefined && p.cue > 0 && (!kinds || kinds.includes(p.kind));
  const steps: CommonFixesPlan['steps'] = [];
  const unsafe = new Map<string, CommonFixesPlan['unsafe'][number]>();
  let text = source;
  // Each round fixes one problem; a file has at most a few per cue, so this bound is never reached honestly.
  for (let round = 0; round < 10_000; round++) {
    const problems = checkSubtitles(text, format, style).filter(wanted);
    const keys = problemKeys(text, format, problems);
    const next = problems.findIndex((_, i) => !unsafe.has(keys[i]));
    if (next < 0) break;
    const problem = problems[next];
    const best = fixVariants(text, format, style, problem)[0];
    if (!best || !isSafe(best)) {
      unsafe.set(keys[next], {
        problem,
        title: best?.title ?? 'no fix applies',
        wouldCreate: best ? (best.solves ? best.created.map((p) => p.message) : ['the problem stays']) : [],
      });
      continue;
    }
    steps.push({ problem, title: best.title, change: best.change });
    text = applyEdits(text, best.edits);
  }
  return {
    steps,
    edits: wholeEdit(source, text),
    text,
    remaining: checkSubtitles(text, format, style),
    unsafe: [...unsafe.values()],
  };
}

/** One edit from `source` to `text` covering only the span that differs. */
export function wholeEdit(source: string, text: string): TextEdit[] {
  if (text === source) return [];
  let head = 0;
  while (head < text.length && head < source.length && text[head] === source[head]) head++;
  let tail = 0;
  while (
    tail < text.length - head &&
    tail < source.length - head &&
    text[text.length - 1 - tail] === source[source.length - 1 - tail]
  )
    tail++;
  return [{ start: head, end: source.length - tail, text: text.slice(head, text.length - tail) }];
}
