/**
 * What an SSML document becomes before any engine sees it: a flat list of steps (speech with its voice,
 * language and prosody; silences of exact length; audio files to insert) plus what the reader could not
 * honour itself. Engines render steps; none of them parses SSML.
 */

/** How a run of speech is said; nested elements multiply rates and add pitch and volume. */
export interface SpeechStyle {
  /** Speaking rate factor, 1 = the voice's own (times the job's speed). */
  rate: number;
  /** Pitch change as a factor of the voice's own, 1 = unchanged. */
  pitch: number;
  /** Volume change in decibels, 0 = unchanged; -Infinity for `silent`. */
  volumeDb: number;
  /** A voice name from `<voice name>`, looked up in the voice library by the server. */
  voice?: string;
  /** A language from `xml:lang` (on `<speak>`, `<lang>`, `<voice>`, `<p>`, `<s>`). */
  language?: string;
}

/** Phonemes from `<phoneme>`; `text` of the step is the written word, for engines that take only text. */
export interface Phonemes {
  alphabet: 'ipa' | 'x-sampa';
  ph: string;
}

/** Where a step was written: offsets in the SSML source, `end` exclusive (Read Aloud highlights it). */
export interface SourceRange {
  start: number;
  end: number;
}

export type SsmlStep =
  | { kind: 'speech'; text: string; style: SpeechStyle; phonemes?: Phonemes; at: SourceRange }
  | { kind: 'pause'; seconds: number }
  /** `src` as written; `fallback` is the element's own text, spoken when the file cannot be used. */
  | { kind: 'audio'; src: string; fallback: string; style: SpeechStyle; line: number; column: number; at: SourceRange };

export interface SsmlPlan {
  steps: SsmlStep[];
  /** The voice names `<voice name>` asked for, in order of first use. */
  voices: string[];
  /** What the reader itself left out, by element or attribute (`prosody contour`), with the reason. */
  ignored: Record<string, string>;
}

export const DEFAULT_STYLE: SpeechStyle = { rate: 1, pitch: 1, volumeDb: 0 };

/** Whether a text is meant as SSML: it starts (after whitespace, an XML declaration or comments) with `<speak`. */
export function looksLikeSsml(text: string): boolean {
  // Read by hand, each character once: as one regular expression, `(<!--[\s\S]*?-->\s*)*` tried every way to
  // split a run of comments, and 30 `<!---->` took seconds.
  const skipSpace = (from: number): number => {
    while (from < text.length && /\s/.test(text[from])) from++;
    return from;
  };
  let at = skipSpace(0);
  if (text.startsWith('<?xml', at)) {
    const end = text.indexOf('?>', at);
    if (end < 0 || text.lastIndexOf('>', end) > at) return false;
    at = skipSpace(end + 2);
  }
  while (text.startsWith('<!--', at)) {
    const end = text.indexOf('-->', at + 4);
    if (end < 0) return false;
    at = skipSpace(end + 3);
  }
  return text.startsWith('<speak', at) && /[\s>/]/.test(text[at + 6] ?? '');
}

/** The text a plan speaks, for counting and naming (audio steps contribute their fallback text). */
export function spokenText(plan: SsmlPlan): string {
  return plan.steps
    .map((step) => (step.kind === 'speech' ? step.text : step.kind === 'audio' ? step.fallback : ' '))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
