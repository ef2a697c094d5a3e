/**
 * The words of one subtitle cue, as a narrator should read them: styling tags, karaoke timestamps,
 * ASS override codes, sound descriptions in brackets and music symbols go; `<v Name>` voice tags, a
 * leading `[Name]` (how our SubRip names speakers) and `Name:` prefixes name the speaker.
 */

export interface CueWords {
  text: string;
  /** From `<v Name>` or a leading `Name:`; undefined when the cue does not say. */
  speaker?: string;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  nbsp: ' ',
  quot: '"',
  apos: "'",
  lrm: '',
  rlm: '',
};

/** Labels that start a line with a colon but name no speaker ("Note: …"); their line is read as it is. */
const NOT_SPEAKERS = new Set([
  'note',
  'notes',
  'warning',
  'caution',
  'tip',
  'example',
  'important',
  'hint',
  'info',
  'error',
  'todo',
  'update',
  'edit',
  'ps',
  'nb',
  're',
  'subject',
  'title',
  'chapter',
  'part',
  'step',
  'summary',
  'translation',
  'lyrics',
  'source',
]);

/** A leading speaker label: one to three capitalized words (or an all-caps name), then a colon. */
const NAME_PREFIX =
  /^(?:-\s*)?((?:[A-Z][\p{L}'’.-]*|[A-Z][A-Z'’.-]+)(?:\s+(?:[A-Z][\p{L}'’.-]*|[A-Z][A-Z'’.-]+)){0,2})\s*:\s+(?=\S)/u;

/**
 * A leading `[Name] ` before the cue's words: a capitalized name of up to four words (not all capitals,
 * which is how sound descriptions are written: [MUSIC]), and not a common sound description.
 */
const BRACKET_SPEAKER = /^\[((?:Speaker \d+)|(?=[^\]]*[a-z])[A-Z][\p{L}'’.-]*(?:\s+[\p{L}'’.-]+){0,3})\][ \t]+(?=\S)/u;
const SOUNDS = new Set([
  'music',
  'laughter',
  'laughs',
  'laughing',
  'applause',
  'inaudible',
  'silence',
  'noise',
  'cheering',
  'cheers',
  'crosstalk',
  'singing',
  'sighs',
  'coughs',
  'foreign',
  'background noise',
  'indistinct',
  'indistinct chatter',
  'chuckles',
  'gasps',
  'static',
  'beep',
]);

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1].toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Cleans the text lines of a cue and finds its speaker. */
export function cueWords(lines: readonly string[]): CueWords {
  let speaker: string | undefined;
  let raw = lines.join('\n');
  const voice = /<v(?:\.[^\s<>]*)?\s+([^<>]+)>/i.exec(raw);
  if (voice) speaker = voice[1].trim();
  const bracketed = BRACKET_SPEAKER.exec(raw);
  if (bracketed && !SOUNDS.has(bracketed[1].toLowerCase())) {
    speaker ??= bracketed[1];
    raw = raw.slice(bracketed[0].length);
  }
  raw = raw
    .replace(/<rt>(?:(?!<rt>)[\s\S])*?<\/rt>/gi, '') // ruby annotations repeat the base text
    .replace(/<\/?[a-z][^<>]*>|<\d{1,2}:\d{2}(?::\d{2})?[.,]\d{3}>/gi, '')
    .replace(/\{\\[^{}]*\}/g, '') // ASS/SSA override codes such as {\an8}
    .replace(/\[[^[\]\n]*\]/g, ' ') // sound descriptions: [MUSIC], [door slams]
    .replace(/[♪♫]/g, ' ');
  const spoken = decodeEntities(raw)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line, index) => {
      const prefix = NAME_PREFIX.exec(line);
      if (prefix && !NOT_SPEAKERS.has(prefix[1].toLowerCase()) && (index === 0 || !speaker)) {
        speaker ??= prefix[1].trim();
        return line.slice(prefix[0].length);
      }
      return line.replace(/^-\s+/, '');
    });
  const text = spoken
    .join(' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
  return speaker ? { text, speaker } : { text };
}
