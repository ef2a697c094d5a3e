/**
 * Laid-out cues as a new YouTube SBV file: `H:MM:SS.mmm,H:MM:SS.mmm`, the text lines, a blank line; readable
 * by scan-sbv.ts, by YouTube Studio and by ffmpeg (its SubViewer reader).
 */
import { writeClock } from './clock-stamp';
import type { Cue } from './cues';
import { speakerTag } from './render-subtitles';

const sbvTime = (seconds: number): string => writeClock(Math.round(seconds * 1000), '0:00:00.000', 3);

export function formatSbv(cues: readonly Cue[]): string {
  return cues
    .map((cue) => {
      // A blank line ends a cue, so a line of the text is never empty.
      const lines = cue.lines.map((line) => line.replace(/[\r\n]+/g, ' ')).filter((line) => line.trim() !== '');
      const label = cue.speaker === undefined ? '' : `${speakerTag(cue.speaker)} `;
      return `${sbvTime(cue.start)},${sbvTime(cue.end)}\n${label}${lines.join('\n')}\n\n`;
    })
    .join('');
}
