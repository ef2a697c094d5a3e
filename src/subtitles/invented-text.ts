/**
 * The subtitle check's hint for text a recognizer may have invented (hallucination-flags.ts), cue by cue: a
 * loop, a stock phrase, a speed nobody speaks at and, once the media's speech is known, text over silence.
 * Kept apart from the style check (check.ts): these are about where the words came from, not how they read.
 */
import { displayText } from './check';
import { hallucinationFlags, type HallucinationFlag, type SpeechSpan } from './hallucination-flags';
import { scanSubtitles, type ScannedCue, type SubtitleFormat } from './scan';
import type { TextEdit } from './edits';
import { removeSpans } from './span-edits';

export interface InventedTextProblem {
  flag: HallucinationFlag;
  /** The cue's position in the file, from 1. */
  cue: number;
  /** The cue's timing line, from 1. */
  line: number;
  message: string;
}

const MESSAGES: Record<HallucinationFlag, (cue: number, seconds: string) => string> = {
  repetition: (cue) => `cue ${cue} repeats itself or the cue before: the recognizer may have looped`,
  'stock-phrase': (cue) => `cue ${cue} is a stock phrase recognizers invent over music or silence`,
  'too-fast': (cue, seconds) =>
    `cue ${cue} holds more words than anyone says in ${seconds} s: the recognizer may have invented them`,
  'no-speech': (cue) => `cue ${cue} has text where no speech was detected`,
};

/** Every cue's flags as problems, in file order; `speech` (the media's speech) adds `no-speech`. */
export function checkInventedText(
  source: string,
  format: SubtitleFormat,
  speech?: readonly SpeechSpan[],
): InventedTextProblem[] {
  const { cues } = scanSubtitles(source, format);
  const flags = hallucinationFlags(
    cues.map((cue) => ({ start: cue.start, end: cue.end, text: cue.lines.map(displayText).join(' ') })),
    speech ? { speech } : {},
  );
  return cues.flatMap((cue, i) =>
    flags[i].map((flag) => ({
      flag,
      cue: cue.index,
      line: cue.line,
      message: MESSAGES[flag](cue.index, String(Math.round((cue.end - cue.start) * 1000) / 1000)),
    })),
  );
}

/**
 * The edit that removes cue `index` (its identifier line, timing and text, and the blank line after it).
 * SRT numbers after it are left as written: players go by the times, and a renumbering would touch every cue.
 */
export function removeCueEdit(source: string, format: SubtitleFormat, index: number): TextEdit | undefined {
  const { cues } = scanSubtitles(source, format);
  const cue: ScannedCue | undefined = cues.find((candidate) => candidate.index === index);
  if (!cue) return undefined;
  if (cue.spans) return removeSpans({ source, format }, cue);
  const lines = source.split(/(?<=\n)/);
  const offsetOf = (line: number): number => lines.slice(0, line - 1).reduce((sum, text) => sum + text.length, 0);
  const previous = lines[cue.line - 2]?.trim() ?? '';
  const hasIdentifier = cue.line > 1 && previous !== '' && !previous.includes('-->') && previous !== 'WEBVTT';
  const first = hasIdentifier ? cue.line - 1 : cue.line;
  let last = cue.lineNumbers.at(-1) ?? cue.line;
  while (last < lines.length && lines[last]?.trim() === '') last++;
  const end = last >= lines.length ? source.length : offsetOf(last + 1);
  return { start: offsetOf(first), end, text: '' };
}
