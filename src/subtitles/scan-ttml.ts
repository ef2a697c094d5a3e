/**
 * Reads the cues of a TTML (DFXP) document: each timed `<p>` with its `begin` and `end` (or `dur`), its lines
 * split at `<br/>`, in the frame and tick rates the `<tt>` root declares. The rest of the document (head,
 * styling, regions, spans inside the text) is left as written; each cue records where its times and text
 * are, so an edit rewrites only those.
 */
import {
  LineIndex,
  SubtitleError,
  durationError,
  type ScannedCue,
  type ScannedSubtitles,
  type Span,
  type TimeBase,
} from './scanned-cue';
import { readTtmlTime } from './ttml-time';

const PARAGRAPH = /<p\b([^<>]*?)(\/>|>((?:(?!<p\b)[\s\S])*?)<\/p\s*>)/g;
const ATTRIBUTE = /(?:^|\s)((?:[\w.-]+:)?[\w.-]+)\s*=\s*(["'])(.*?)\2/g;
const LINE_BREAK = /<br\b[^<>]*\/?>/g;

/** The `ttp:` rates of the root element (TTML's defaults: 30 frames, and ticks at the frame rate, else 1 per second). */
function timeBaseOf(rootAttributes: string): TimeBase {
  const attribute = (name: string): string | undefined =>
    new RegExp(`(?:^|\\s)ttp:${name}\\s*=\\s*["']([^"']*)["']`).exec(rootAttributes)?.[1];
  const frames = Number(attribute('frameRate') ?? 30) || 30;
  const [numerator, denominator] = (attribute('frameRateMultiplier') ?? '1 1').trim().split(/\s+/).map(Number);
  const frameRate = frames * ((numerator || 1) / (denominator || 1));
  const tickRate = Number(attribute('tickRate') ?? (attribute('frameRate') ? frameRate : 1)) || 1;
  return { frameRate, tickRate };
}

export function scanTtml(source: string): ScannedSubtitles {
  const index = new LineIndex(source);
  const errors: SubtitleError[] = [];
  const cues: ScannedCue[] = [];
  const root = /<(?:[\w.-]+:)?tt\b([^>]*)>/.exec(source);
  if (!root) errors.push(new SubtitleError(1, 'a TTML document has a <tt> root element'));
  const timeBase = timeBaseOf(root?.[1] ?? '');
  for (const match of source.matchAll(PARAGRAPH)) {
    const at = match.index ?? 0;
    const line = index.lineOf(at);
    const attributesAt = at + 2;
    const times: Partial<Record<'begin' | 'end' | 'dur', { span: Span; ms: number | undefined; text: string }>> = {};
    for (const attribute of match[1].matchAll(ATTRIBUTE)) {
      const name = attribute[1] as 'begin' | 'end' | 'dur';
      if (name !== 'begin' && name !== 'end' && name !== 'dur') continue;
      const valueAt = attributesAt + (attribute.index ?? 0) + attribute[0].length - 1 - attribute[3].length;
      times[name] = {
        span: { start: valueAt, end: valueAt + attribute[3].length },
        ms: readTtmlTime(attribute[3], timeBase),
        text: attribute[3],
      };
    }
    const begin = times.begin;
    const finish = times.end ?? times.dur;
    if (!begin || !finish) {
      errors.push(
        new SubtitleError(
          line,
          `the <p> has no ${begin ? 'end or dur' : 'begin'} time of its own (times on its parent <div> or on its <span>s are not read)`,
        ),
      );
      continue;
    }
    const bad = [begin, finish].find((time) => time.ms === undefined);
    if (bad) {
      errors.push(
        new SubtitleError(
          line,
          `cannot read the time "${bad.text.slice(0, 30)}" (expected 00:00:01.500, 00:00:01:12 or 1.5s)`,
        ),
      );
      continue;
    }
    const startMs = begin.ms!;
    const endMs = times.end ? times.end.ms! : startMs + finish.ms!;
    const content = match[3] ?? '';
    const contentAt = match[3] === undefined ? at + match[0].length : at + 3 + match[1].length;
    const text = textSpan(content, contentAt);
    const pieces = splitLines(source.slice(text.start, text.end), text.start);
    const cue: ScannedCue = {
      index: cues.length + 1,
      start: startMs / 1000,
      end: endMs / 1000,
      line,
      lines: pieces.map((piece) => piece.text),
      lineNumbers: pieces.map((piece) => index.lineOf(piece.at)),
      spans: {
        block: { start: at, end: at + match[0].length },
        start: begin.span,
        end: finish.span,
        text,
        ...(times.end ? {} : { endIsDuration: true }),
        lineBreak: /<br\b[^<>]*\/?>/.exec(content)?.[0] ?? '<br/>',
      },
    };
    cues.push(cue);
    const duration = durationError(cue);
    if (duration) errors.push(duration);
  }
  return { cues, errors, lineCount: index.count, timeBase };
}

/** The text of a `<p>` without the whitespace around it (an empty span at its end when it has none). */
function textSpan(content: string, contentAt: number): Span {
  const lead = content.length - content.trimStart().length;
  const trimmed = content.trim();
  return trimmed === ''
    ? { start: contentAt + content.length, end: contentAt + content.length }
    : { start: contentAt + lead, end: contentAt + lead + trimmed.length };
}

/** The text's lines as written, split at `<br/>`; each with where its first shown character is. */
function splitLines(text: string, textAt: number): { text: string; at: number }[] {
  if (text === '') return [];
  const pieces: { text: string; at: number }[] = [];
  let from = 0;
  for (const br of [...text.matchAll(LINE_BREAK), undefined]) {
    const to = br ? (br.index ?? 0) : text.length;
    const piece = text.slice(from, to);
    pieces.push({ text: piece, at: textAt + from + (piece.length - piece.trimStart().length) });
    if (br) from = to + br[0].length;
  }
  return pieces;
}
