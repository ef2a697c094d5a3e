/**
 * Tolerant SRT and WebVTT readers for narration. They accept what players accept: a byte-order mark,
 * CRLF or CR line ends, missing cue numbers, hours left out, `.` or `,` before the milliseconds, WebVTT cue
 * settings, NOTE/STYLE/REGION blocks, extra blank lines and cues whose text runs on after a stray blank
 * line. What cannot be read is a SubtitleError naming the line.
 */
import { cueWords } from './cue-text';
import { scanSubtitles, SubtitleError, type SubtitleFormat } from './scan';

export { SubtitleError, type SubtitleFormat } from './scan';

export interface SubtitleCue {
  /** Position in the file, from 1. */
  index: number;
  /** Seconds. */
  start: number;
  end: number;
  text: string;
  speaker?: string;
  /** Line of the cue's timing, from 1. */
  line: number;
}

/** Parses subtitles; cues come back in time order, each with clean text and its speaker, if named. */
export function parseSubtitles(source: string, format: SubtitleFormat): SubtitleCue[] {
  const { cues, errors, lineCount } = scanSubtitles(source, format);
  if (errors.length > 0) throw errors[0];
  if (cues.length === 0) throw new SubtitleError(lineCount, 'the file has no cues');
  return cues
    .map((cue, i) => ({ cue, i }))
    .sort((a, b) => a.cue.start - b.cue.start || a.i - b.i)
    .map(({ cue, i }) => ({ index: i + 1, start: cue.start, end: cue.end, line: cue.line, ...cueWords(cue.lines) }));
}
