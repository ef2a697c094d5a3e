import { buildCues, DEFAULT_CUE_LIMITS, type Cue, type CueLimits } from './cues';
import { formatTimestamp } from './timestamps';
import type { Transcript } from './types';

/** SubRip: numbered cues, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, each diarized cue opening with `[Speaker N] `, a blank line after each. */
export function renderSrt(transcript: Transcript, limits: CueLimits = DEFAULT_CUE_LIMITS): string {
  return formatSrt(buildCues(transcript.segments, limits));
}

/** WebVTT: the `WEBVTT` header, then cues `HH:MM:SS.mmm`, each diarized cue in a `<v Speaker N>` voice span. */
export function renderVtt(transcript: Transcript, limits: CueLimits = DEFAULT_CUE_LIMITS): string {
  return formatVtt(buildCues(transcript.segments, limits));
}

/** Laid-out cues as SubRip. */
export function formatSrt(cues: readonly Cue[]): string {
  return cues
    .map((cue, i) => {
      const timing = `${formatTimestamp(cue.start, ',')} --> ${formatTimestamp(cue.end, ',')}`;
      // SubRip has no voice tag: the label in brackets is the common way to say who speaks.
      const label = cue.speaker === undefined ? '' : `${speakerTag(cue.speaker)} `;
      return `${i + 1}\n${timing}\n${label}${cue.lines.join('\n')}\n\n`;
    })
    .join('');
}

/** How SubRip cues name their speaker: `[Ann]` (read back by src/subtitles/cue-text.ts). */
export const speakerTag = (speaker: string): string => `[${speaker}]`;

/** Laid-out cues as WebVTT. */
export function formatVtt(cues: readonly Cue[]): string {
  const blocks = cues.map((cue) => {
    const timing = `${formatTimestamp(cue.start, '.')} --> ${formatTimestamp(cue.end, '.')}`;
    const text = cue.lines.map(escapeVttText).join('\n');
    const voiced = cue.speaker === undefined ? text : `<v ${escapeVttText(cue.speaker)}>${text}`;
    return `${timing}\n${voiced}\n\n`;
  });
  return `WEBVTT\n\n${blocks.join('')}`;
}

/** Cue text may not contain `&`, `<` or `>` raw (nor `-->`, which escaping `>` rules out). */
function escapeVttText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
