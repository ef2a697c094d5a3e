/**
 * The cue grid's rules without VS Code: the rows it shows (timing, duration, reading speed and the
 * checker's problems per cue), the messages its webview may send, checked, and the text edits an edit in a
 * cell becomes. The grid (cue-grid.ts) only applies these edits to the document, so undo, save and git
 * diff work as they do for typing.
 */
import { cueReadingSpeed } from '../../subtitles/check';
import { retimeCues, replaceCueLines, SubtitleEditError, type TextEdit } from '../../subtitles/edits';
import { scanSubtitles, type ScannedCue, type SubtitleFormat } from '../../subtitles/scan';

export interface GridRow {
  index: number;
  start: number;
  end: number;
  duration: number;
  /** Characters per second as the checker computes it (one decimal); null for a cue without duration. */
  charsPerSecond: number | null;
  /** The cue's lines as written (tags and all): what the text cell edits. */
  text: string;
  /** The checker's messages on this cue's lines. */
  problems: string[];
}

/** A problem as the editor has it: its line (from 1) and what it says. */
export interface LineProblem {
  line: number;
  message: string;
}

/** The first line (from 1) of each cue's block: its identifier line when it has one, else its timing. */
function firstLines(cues: readonly ScannedCue[], lineText: (line: number) => string | undefined): number[] {
  return cues.map((cue) =>
    cue.spans || cue.line < 2 || (lineText(cue.line - 1) ?? '').trim() === '' ? cue.line : cue.line - 1,
  );
}

/** The grid's rows: every cue, with the problems whose line falls in its block. */
export function gridRows(source: string, format: SubtitleFormat, problems: readonly LineProblem[]): GridRow[] {
  const { cues } = scanSubtitles(source, format);
  const lines = source.split(/\r\n|\r|\n/);
  const starts = firstLines(cues, (line) => lines[line - 1]);
  const rows = cues.map((cue): GridRow => ({
    index: cue.index,
    start: cue.start,
    end: cue.end,
    duration: Math.round((cue.end - cue.start) * 1000) / 1000,
    charsPerSecond: cueReadingSpeed(cue).charsPerSecond,
    text: cue.lines.join('\n'),
    problems: [],
  }));
  for (const problem of problems) {
    let owner = -1;
    starts.forEach((first, i) => {
      if (first <= problem.line) owner = i;
    });
    if (owner >= 0) rows[owner].problems.push(problem.message);
  }
  return rows;
}

/**
 * Seconds from what a person types in a time cell: `1:02:03.450`, `02:03,450`, `3.45` (seconds); undefined
 * when it is none of them.
 */
export function parseGridTime(text: string): number | undefined {
  const match = /^\s*(?:(?:(\d+):)?(\d{1,2}):)?(\d{1,2}|\d+(?=[.,]|\s*$))(?:[.,](\d{1,3}))?\s*$/.exec(text);
  if (!match) return undefined;
  const [, hours, minutes, secs, fraction] = match;
  if (minutes !== undefined && (Number(secs) > 59 || Number(minutes) > 59)) return undefined;
  const ms =
    Number(hours ?? 0) * 3_600_000 +
    Number(minutes ?? 0) * 60_000 +
    Number(secs) * 1000 +
    (fraction ? Number(fraction.padEnd(3, '0')) : 0);
  return ms / 1000;
}

/** What the grid's page may ask for. */
export type GridMessage =
  | { type: 'ready' }
  | { type: 'pick-media' }
  | { type: 'edit'; index: number; field: 'start' | 'end' | 'text'; value: string }
  | { type: 'select'; index: number }
  | { type: 'play'; index: number }
  | { type: 'shown'; time: number; cue: number | null; text: string; request?: number }
  | { type: 'rendered'; rows: number; media: 'video' | 'audio' | 'none' };

const isIndex = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 1;
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** The message if it is one the grid understands, else undefined (a page never makes the extension throw). */
export function parseGridMessage(raw: unknown): GridMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const message = raw as Record<string, unknown>;
  switch (message.type) {
    case 'ready':
    case 'pick-media':
      return { type: message.type };
    case 'edit':
      if (
        !isIndex(message.index) ||
        typeof message.value !== 'string' ||
        !['start', 'end', 'text'].includes(message.field as string)
      )
        return undefined;
      return {
        type: 'edit',
        index: message.index,
        field: message.field as 'start' | 'end' | 'text',
        value: message.value,
      };
    case 'select':
    case 'play':
      return isIndex(message.index) ? { type: message.type, index: message.index } : undefined;
    case 'shown':
      if (!isTime(message.time) || !(message.cue === null || isIndex(message.cue)) || typeof message.text !== 'string')
        return undefined;
      return {
        type: 'shown',
        time: message.time,
        cue: message.cue,
        text: message.text,
        ...(isIndex(message.request) ? { request: message.request } : {}),
      };
    case 'rendered':
      if (typeof message.rows !== 'number' || !['video', 'audio', 'none'].includes(message.media as string))
        return undefined;
      return { type: 'rendered', rows: message.rows, media: message.media as 'video' | 'audio' | 'none' };
    default:
      return undefined;
  }
}

/**
 * The text edits a cell edit makes, or a sentence saying why it makes none (a time that is not one, a start
 * after the end, an empty text). An unchanged value makes no edit.
 */
export function editsForCell(
  source: string,
  format: SubtitleFormat,
  edit: { index: number; field: 'start' | 'end' | 'text'; value: string },
): TextEdit[] | string {
  const cue = scanSubtitles(source, format).cues[edit.index - 1];
  if (!cue) return `There is no cue ${edit.index}.`;
  try {
    if (edit.field === 'text') {
      const lines = edit.value.split(/\r\n|\r|\n/).map((line) => line.trimEnd());
      while (lines.length > 0 && lines.at(-1) === '') lines.pop();
      if (lines.length === 0)
        return `Cue ${edit.index} needs some text (delete the cue in the text editor to remove it).`;
      if (lines.some((line) => line.trim() === ''))
        return "A cue's text cannot hold an empty line: it would end the cue.";
      return lines.join('\n') === cue.lines.join('\n') ? [] : replaceCueLines(source, format, edit.index, lines);
    }
    const seconds = parseGridTime(edit.value);
    if (seconds === undefined) return `"${edit.value}" is not a time (write it as 00:01:02,500 or 62.5).`;
    const start = edit.field === 'start' ? seconds : cue.start;
    const end = edit.field === 'end' ? seconds : cue.end;
    if (end <= start) return `Cue ${edit.index} would end (${end} s) before it starts (${start} s).`;
    const ms = Math.round(seconds * 1000);
    return retimeCues(source, format, new Map([[edit.index, edit.field === 'start' ? { start: ms } : { end: ms }]]));
  } catch (error) {
    if (error instanceof SubtitleEditError) return `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`;
    throw error;
  }
}

/** The cue shown at `seconds`: the last cue in file order that has begun and not ended, as players do. */
export function cueAtTime(rows: readonly Pick<GridRow, 'index' | 'start' | 'end'>[], seconds: number): number | null {
  let shown: number | null = null;
  for (const row of rows) if (row.start <= seconds && seconds < row.end) shown = row.index;
  return shown;
}
