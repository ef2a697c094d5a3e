/**
 * What every subtitle reader (scan.ts for SRT/WebVTT, scan-ass.ts, scan-ttml.ts, scan-sbv.ts) gives back: the
 * cues in file order with their text lines as written and where in the source their times and text sit, so
 * the checker can point at lines and the edits can rewrite only what they touch.
 */
export type SubtitleFormat = 'srt' | 'vtt' | 'ass' | 'ssa' | 'ttml' | 'sbv';

export const SUBTITLE_FORMATS: readonly SubtitleFormat[] = ['srt', 'vtt', 'ass', 'ssa', 'ttml', 'sbv'];

/** File name extensions and the format each holds (`.dfxp` is TTML under its older name). */
const EXTENSIONS: Record<string, SubtitleFormat> = {
  srt: 'srt',
  vtt: 'vtt',
  ass: 'ass',
  ssa: 'ssa',
  ttml: 'ttml',
  dfxp: 'ttml',
  sbv: 'sbv',
};

/** The format a file name says it holds, or undefined when it is not a subtitle file we read. */
export function subtitleFormatOfPath(path: string): SubtitleFormat | undefined {
  const extension = /\.([a-z]+)$/i.exec(path)?.[1].toLowerCase();
  return extension === undefined ? undefined : EXTENSIONS[extension];
}

export class SubtitleError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'SubtitleError';
  }
}

/** The error of a cue that ends when or before it starts (the cue is kept, as the SRT reader keeps it). */
export function durationError(cue: ScannedCue): SubtitleError | undefined {
  const [start, end] = [Math.round(cue.start * 1000), Math.round(cue.end * 1000)];
  if (end === start) return new SubtitleError(cue.line, 'the cue has no duration: it starts and ends at the same time');
  if (end < start) return new SubtitleError(cue.line, 'the cue ends before it starts');
  return undefined;
}

/** UTF-16 offsets into the source as given (a byte-order mark counts), `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

/**
 * Where an ASS/SSA, TTML or SBV cue sits in its source. SRT and WebVTT cues have none: their edits work
 * line by line (edits.ts).
 */
export interface CueSpans {
  /** The whole cue: an ASS `Dialogue:` line, a TTML `<p>` element, an SBV block from timing to last text line. */
  block: Span;
  /** The start and end time as written (for a TTML cue timed by `dur`, `end` is the duration). */
  start: Span;
  end: Span;
  /** The cue's text, without the whitespace around it. */
  text: Span;
  /** TTML's `dur`: the end is written as a duration from the start. */
  endIsDuration?: boolean;
  /** How the cue writes a line break inside its text: `\N`, `<br/>`, or the file's line break. */
  lineBreak: string;
}

export interface ScannedCue {
  /** Position in the file, from 1. */
  index: number;
  /** Seconds. */
  start: number;
  end: number;
  /** Line of the cue's timing, from 1. */
  line: number;
  /** The text lines as written (tags and all), and their line numbers. */
  lines: string[];
  lineNumbers: number[];
  spans?: CueSpans;
}

/** What a file's times are counted in, for TTML's frame and tick times; absent for the other formats. */
export interface TimeBase {
  frameRate: number;
  tickRate: number;
}

export interface ScannedSubtitles {
  cues: ScannedCue[];
  /** In file order. */
  errors: SubtitleError[];
  lineCount: number;
  timeBase?: TimeBase;
}

/** The offsets where each line starts, and the line (from 1) of any offset. */
export class LineIndex {
  readonly starts: number[] = [0];
  /** The file's first line break, or `\n` when it has none. */
  readonly eol: string;

  constructor(readonly source: string) {
    const breaks = /\r\n|\r|\n/g;
    for (let match = breaks.exec(source); match; match = breaks.exec(source))
      this.starts.push(match.index + match[0].length);
    this.eol = /\r\n|\r|\n/.exec(source)?.[0] ?? '\n';
  }

  lineOf(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }

  /** The text of line `line` (from 1) without its line break, and where it starts. */
  line(line: number): { start: number; text: string } {
    const start = this.starts[line - 1];
    const next = this.starts[line] ?? this.source.length + 1;
    const text = this.source.slice(start, next).replace(/(\r\n|\r|\n)$/, '');
    return { start, text };
  }

  get count(): number {
    return this.starts.length;
  }
}
