/**
 * Laid-out cues as a new TTML document (W3C TTML1, the profile DFXP players and broadcast tools read): one
 * `<p begin end>` a cue, lines split by `<br/>`, the language on the root; readable by scan-ttml.ts.
 */
import type { Cue } from './cues';
import { speakerTag } from './render-subtitles';
import { formatTimestamp } from './timestamps';

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A BCP 47 tag for `xml:lang`; `auto` and anything else unusable leave it empty (TTML's "unknown"). */
const langOf = (language: string | undefined): string =>
  language && /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(language) ? language : '';

export function formatTtml(cues: readonly Cue[], language?: string): string {
  const paragraphs = cues.map((cue, i) => {
    // As in SubRip, `[Name] ` says who speaks (ttm:agent would need an agent declared for every speaker).
    const label = cue.speaker === undefined ? '' : `${speakerTag(cue.speaker)} `;
    const text = cue.lines.map((line) => escapeXml(line.replace(/[\r\n]+/g, ' '))).join('<br/>');
    return `      <p xml:id="c${i + 1}" begin="${formatTimestamp(cue.start, '.')}" end="${formatTimestamp(cue.end, '.')}">${escapeXml(label)}${text}</p>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="${langOf(language)}">`,
    '  <head>',
    '    <styling>',
    '      <style xml:id="s1" tts:textAlign="center" tts:color="white"/>',
    '    </styling>',
    '  </head>',
    '  <body style="s1">',
    '    <div>',
    ...paragraphs,
    '    </div>',
    '  </body>',
    '</tt>',
    '',
  ].join('\n');
}
