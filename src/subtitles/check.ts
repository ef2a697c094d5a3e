/**
 * Checks a subtitle file (SRT, WebVTT, ASS/SSA, TTML, SBV) against a subtitle style: every problem with its
 * cue, kind and line, so an editor can put it on the cue and a script can list it. Cues are taken in file order, as players show them.
 */
import { scanSubtitles, type ScannedCue, type SubtitleFormat } from './scan';
import type { SubtitleStyle } from '../contract/subtitle-style';

export type ProblemKind =
  | 'parse'
  | 'empty'
  | 'reading-speed'
  | 'line-too-long'
  | 'too-many-lines'
  | 'too-short'
  | 'too-long'
  | 'overlap'
  | 'gap-too-small'
  | 'out-of-order';

export interface SubtitleProblem {
  kind: ProblemKind;
  /** The cue's position in the file, from 1; 0 for a problem outside any cue. */
  cue: number;
  /** The line to point at, from 1: the cue's timing line, or the text line at fault. */
  line: number;
  message: string;
}

/**
 * Every problem of the file under the style, in line order.
 * @example checkSubtitles('1\n00:00:00,000 --> 00:00:00,500\nHi\n', 'srt', DEFAULT_SUBTITLE_STYLE)
 * // [{ kind: 'too-short', cue: 1, line: 2, message: 'cue 1 lasts 0.5 s, less than the minimum of 0.83 s' }]
 */
export function checkSubtitles(source: string, format: SubtitleFormat, style: SubtitleStyle): SubtitleProblem[] {
  const { cues, errors } = scanSubtitles(source, format);
  const problems: SubtitleProblem[] = errors.map((error) => ({
    kind: 'parse',
    cue: cues.find((cue) => cue.line === error.line)?.index ?? 0,
    line: error.line,
    message: `line ${error.line}: ${error.reason}`,
  }));
  cues.forEach((cue, i) => problems.push(...checkCue(cue, style), ...checkSequence(cues[i - 1], cue, style)));
  return problems.sort((a, b) => a.line - b.line);
}

function checkCue(cue: ScannedCue, style: SubtitleStyle): SubtitleProblem[] {
  const problems: SubtitleProblem[] = [];
  const problem = (kind: ProblemKind, message: string, line = cue.line): void => {
    problems.push({ kind, cue: cue.index, line, message });
  };
  const shown = cue.lines.map(displayText);
  const lengths = shown.map(characterCount);
  const { characters, charsPerSecond } = cueReadingSpeed(cue);
  if (characters === 0) problem('empty', `cue ${cue.index} has no text`);
  shown.forEach((_, i) => {
    if (lengths[i] > style.maxLineChars) {
      problem(
        'line-too-long',
        `line ${i + 1} of cue ${cue.index} has ${lengths[i]} characters, more than ${style.maxLineChars}`,
        cue.lineNumbers[i],
      );
    }
  });
  if (shown.length > style.maxLines) {
    problem(
      'too-many-lines',
      `cue ${cue.index} has ${shown.length} lines, more than ${style.maxLines}`,
      cue.lineNumbers[style.maxLines],
    );
  }
  const durationMs = Math.round((cue.end - cue.start) * 1000);
  if (durationMs <= 0) return problems; // the scanner reported it: the cue ends before it starts
  if (durationMs < Math.round(style.minDurationSeconds * 1000)) {
    problem(
      'too-short',
      `cue ${cue.index} lasts ${seconds(durationMs)} s, less than the minimum of ${style.minDurationSeconds} s`,
    );
  }
  if (durationMs > Math.round(style.maxDurationSeconds * 1000)) {
    problem(
      'too-long',
      `cue ${cue.index} lasts ${seconds(durationMs)} s, more than the maximum of ${style.maxDurationSeconds} s`,
    );
  }
  const speed = charsPerSecond ?? 0;
  if (speed > style.maxCharsPerSecond) {
    problem(
      'reading-speed',
      `cue ${cue.index} reads at ${speed.toFixed(1)} characters per second, faster than ${style.maxCharsPerSecond}`,
    );
  }
  return problems;
}

/**
 * The characters a viewer reads in the cue and how fast: characters per second rounded to one decimal, as
 * shown and compared (so no cue is reported as "17.0 characters per second, faster than 17"); null when
 * the cue has no duration.
 */
export function cueReadingSpeed(cue: ScannedCue): { characters: number; charsPerSecond: number | null } {
  const characters = cue.lines
    .map(displayText)
    .map(characterCount)
    .reduce((sum, length) => sum + length, 0);
  const durationMs = Math.round((cue.end - cue.start) * 1000);
  return {
    characters,
    charsPerSecond: durationMs > 0 ? Math.round((characters / (durationMs / 1000)) * 10) / 10 : null,
  };
}

/** What is wrong between a cue and the one before it in the file. */
function checkSequence(previous: ScannedCue | undefined, cue: ScannedCue, style: SubtitleStyle): SubtitleProblem[] {
  if (!previous) return [];
  const at = { cue: cue.index, line: cue.line };
  const startMs = Math.round(cue.start * 1000);
  if (startMs < Math.round(previous.start * 1000)) {
    return [
      {
        kind: 'out-of-order',
        ...at,
        message: `cue ${cue.index} starts before cue ${previous.index}, which comes first in the file`,
      },
    ];
  }
  const gapMs = startMs - Math.round(previous.end * 1000);
  if (gapMs < 0) {
    return [
      {
        kind: 'overlap',
        ...at,
        message: `cue ${cue.index} starts ${seconds(-gapMs)} s before cue ${previous.index} ends`,
      },
    ];
  }
  if (gapMs < Math.round(style.minGapSeconds * 1000)) {
    return [
      {
        kind: 'gap-too-small',
        ...at,
        message: `cue ${cue.index} starts ${seconds(gapMs)} s after cue ${previous.index} ends, less than the minimum gap of ${style.minGapSeconds} s`,
      },
    ];
  }
  return [];
}

/**
 * A cue line as a viewer sees it: without styling tags, WebVTT voice and timestamp tags, ASS override codes
 * (`{\an8}`, with `\h` as a space), TTML line wrapping, and with entities decoded, so only shown
 * characters count.
 */
export function displayText(line: string): string {
  return line
    .replace(/<\/?[a-z][^>]*>|<\d{1,2}:\d{2}(?::\d{2})?[.,]\d{3}>/gi, '')
    .replace(/\{\\[^}]*\}/g, '')
    .replace(/\\h/g, '\u00a0') // ASS hard space
    .replace(/\s*[\r\n]\s*/g, ' ') // a TTML line written across source lines shows as one
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1].toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    })
    .trim();
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  nbsp: '\u00a0',
  quot: '"',
  apos: "'",
  lrm: '',
  rlm: '',
};

function characterCount(text: string): number {
  return Array.from(text).length;
}

function seconds(ms: number): string {
  return String(Math.round(ms) / 1000);
}
