/**
 * What the language model is asked when a subtitle file is translated, and how its answers are read: one
 * cue at a time with its neighbours as context, the answer a JSON object under a JSON-schema grammar (so a
 * small or random model can be wrong but never malformed), and one constrained rewrite for a cue that would
 * read too fast.
 */

/** A prompt for a chat model: the standing instructions and the request. */
export interface ChatPrompt {
  system: string;
  user: string;
}

/** The JSON schema of an answer: one string, bounded so generation always ends within the token budget. */
export interface AnswerSchema {
  type: 'object';
  properties: { translation: { type: 'string'; minLength: number; maxLength: number } };
  required: ['translation'];
  additionalProperties: false;
}

/** The cue being translated with the cues around it, as text (lines joined by a space). */
export interface CueInContext {
  before: readonly string[];
  text: string;
  after: readonly string[];
}

/** How many cues before and after the current one the model sees. */
export const CONTEXT_CUES = 2;

/** An answer never runs past this many characters, whatever the cue: a bound for the grammar and the token budget. */
export const MAX_ANSWER_CHARS = 400;

/** The language's English name for the prompt (`de` → German); the tag itself when it has none. */
export function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(tag);
    return name && name !== tag ? name : tag;
  } catch {
    return tag;
  }
}

/** The cues around `index` (its neighbours as context), each cue's text on one line. */
export function cueInContext(texts: readonly string[], index: number, context = CONTEXT_CUES): CueInContext {
  return {
    before: texts.slice(Math.max(0, index - context), index),
    text: texts[index],
    after: texts.slice(index + 1, index + 1 + context),
  };
}

/** The answer schema for a string of at most `maxChars` characters (never empty). */
export function answerSchema(maxChars: number): AnswerSchema {
  const maxLength = Math.max(1, Math.min(MAX_ANSWER_CHARS, Math.floor(maxChars)));
  return {
    type: 'object',
    properties: { translation: { type: 'string', minLength: 1, maxLength } },
    required: ['translation'],
    additionalProperties: false,
  };
}

/** The room a translation gets: generous against the source (languages differ in length), within the bound. */
export function translationRoom(source: string): number {
  return Math.min(MAX_ANSWER_CHARS, Array.from(source).length * 2 + 40);
}

const quoted = (lines: readonly string[]): string => lines.map((line) => `- ${JSON.stringify(line)}`).join('\n');

/** The request to translate one cue, the neighbouring cues given as context only. */
export function translationPrompt(cue: CueInContext, to: string, from?: string): ChatPrompt {
  const target = languageName(to);
  const source = from ? languageName(from) : 'its original language';
  const parts = [`Translate this subtitle from ${source} into ${target}:`, JSON.stringify(cue.text)];
  if (cue.before.length)
    parts.push(`Subtitles just before it (context only, do not translate):\n${quoted(cue.before)}`);
  if (cue.after.length) parts.push(`Subtitles just after it (context only, do not translate):\n${quoted(cue.after)}`);
  return {
    system:
      `You translate film and video subtitles into ${target}. Translate only the subtitle you are given, ` +
      'keeping its meaning, tone and names; a subtitle may be half a sentence that the next one finishes. ' +
      'Answer with JSON: {"translation": "..."}.',
    user: parts.join('\n\n'),
  };
}

/** The one rewrite of a translation that reads too fast: the same meaning in at most `maxChars` characters. */
export function shorteningPrompt(translation: string, maxChars: number, to: string): ChatPrompt {
  const target = languageName(to);
  return {
    system:
      `You condense ${target} subtitles so viewers can read them in time. Keep the meaning and the ${target} language; ` +
      'drop filler words, repetitions and what the picture shows. Answer with JSON: {"translation": "..."}.',
    user: `Say this in at most ${maxChars} characters:\n${JSON.stringify(translation)}`,
  };
}

/** Thrown when an answer is not what the schema promised (a model run without its grammar, a cut-off answer). */
export class MalformedAnswerError extends Error {
  constructor(detail: string) {
    super(`The language model's answer was malformed: ${detail}`);
    this.name = 'MalformedAnswerError';
  }
}

/** A model's answer as the JSON object the grammar asked for, or a MalformedAnswerError saying what it is instead. */
export function answerObject(answer: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(answer);
  } catch {
    throw new MalformedAnswerError(`not JSON (${JSON.stringify(answer.slice(0, 80))})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new MalformedAnswerError('not a JSON object');
  return value as Record<string, unknown>;
}

/**
 * The translation in a model's answer (JSON text): trimmed, with line breaks, control characters and runs of
 * spaces made single spaces (the subtitle style lays out the lines again).
 */
export function parseAnswer(answer: string): string {
  const translation = answerObject(answer).translation;
  if (typeof translation !== 'string') throw new MalformedAnswerError('no "translation" string');
  // Control characters (a JSON escape such as \b) have no place on screen.
  return translation.replace(/[\p{Cc}\s]+/gu, ' ').trim();
}
