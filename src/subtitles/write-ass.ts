/**
 * Laid-out cues as a new ASS (Advanced SubStation Alpha v4.00+) script: the script info, one `Default` style
 * and a `Dialogue:` line a cue, in the shape ffmpeg and Aegisub write, readable by scan-ass.ts and libass.
 */
import { writeClock } from './clock-stamp';
import type { Cue } from './cues';

const HEADER = [
  '[Script Info]',
  '; Written by Speech Studio',
  'ScriptType: v4.00+',
  'PlayResX: 384',
  'PlayResY: 288',
  'WrapStyle: 0',
  'ScaledBorderAndShadow: yes',
  '',
  '[V4+ Styles]',
  'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
  'Style: Default,Arial,16,&H00FFFFFF,&H00FFFFFF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1',
  '',
  '[Events]',
  'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
];

/** ASS counts in hundredths of a second: `H:MM:SS.cc`. */
const assTime = (seconds: number): string => writeClock(Math.round(seconds * 1000), '0:00:00.00', 2);

/**
 * Text as ASS shows it literally: a line break would end the Dialogue line, `{…}` would be read as override
 * tags (so braces become parentheses), and `\N`, `\n`, `\h` as escapes (so a zero-width space parts them).
 */
function assText(line: string): string {
  return line
    .replace(/[\r\n]+/g, ' ')
    .replace(/\{/g, '(')
    .replace(/\}/g, ')')
    .replace(/\\(?=[Nnh])/g, '\\\u200B');
}

/** The speaker goes in the Name (actor) field, which has no commas: the Text field starts after the ninth. */
const actor = (speaker: string | undefined): string => (speaker ?? '').replace(/[,\r\n]/g, ' ').trim();

export function formatAss(cues: readonly Cue[]): string {
  const events = cues.map(
    (cue) =>
      `Dialogue: 0,${assTime(cue.start)},${assTime(cue.end)},Default,${actor(cue.speaker)},0,0,0,,${cue.lines.map(assText).join('\\N')}`,
  );
  return `${[...HEADER, ...events].join('\n')}\n`;
}
