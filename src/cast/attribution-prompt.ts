/**
 * What the language model is asked when a book's dialogue is cast, and how its answers are read: one quote at
 * a time with the paragraphs around it, the speakers named so far offered (so one character keeps one name),
 * the answer a JSON object under a JSON-schema grammar: who speaks, and their gender and age as far as the
 * text tells. A small or random model can be wrong here, never malformed.
 */
import { answerObject, MalformedAnswerError, type ChatPrompt } from '../translate/translate-prompt';

export const GENDERS = ['female', 'male', 'unknown'] as const;
export const AGES = ['child', 'adult', 'elder', 'unknown'] as const;
export type CastGender = (typeof GENDERS)[number];
export type CastAge = (typeof AGES)[number];

/** The name the rest of the text is read by. */
export const NARRATOR = 'Narrator';
/** A speaker's name is at most this long: a bound for the grammar. */
export const MAX_SPEAKER_CHARS = 40;

export interface Attribution {
  speaker: string;
  gender: CastGender;
  age: CastAge;
}

/** A quote to attribute, with the text around it. */
export interface QuoteInContext {
  quote: string;
  /** The quote's paragraph, and the one before it when there is one. */
  context: string;
}

export interface AttributionSchema {
  type: 'object';
  properties: {
    speaker: { type: 'string'; minLength: 1; maxLength: number };
    gender: { enum: CastGender[] };
    age: { enum: CastAge[] };
  };
  required: ['speaker', 'gender', 'age'];
  additionalProperties: false;
}

export function attributionSchema(): AttributionSchema {
  return {
    type: 'object',
    properties: {
      speaker: { type: 'string', minLength: 1, maxLength: MAX_SPEAKER_CHARS },
      gender: { enum: [...GENDERS] },
      age: { enum: [...AGES] },
    },
    required: ['speaker', 'gender', 'age'],
    additionalProperties: false,
  };
}

/** The request to name the speaker of one quote. */
export function attributionPrompt(item: QuoteInContext, known: readonly string[]): ChatPrompt {
  const parts = [`Passage:\n${item.context}`, `Who says ${JSON.stringify(item.quote)}?`];
  if (known.length)
    parts.push(
      `Characters named so far: ${known.map((name) => JSON.stringify(name)).join(', ')}. Use the same name for the same character.`,
    );
  return {
    system:
      'You read fiction in any language and tell who speaks each line of dialogue. Name the character as the text ' +
      `names them; if the text does not say who speaks, answer "${NARRATOR}". Give their gender and age group as far ` +
      'as the text tells (else "unknown"). Answer with JSON: {"speaker": "...", "gender": "...", "age": "..."}.',
    user: parts.join('\n\n'),
  };
}

/** The attribution in a model's answer (JSON text): the speaker's name tidied, gender and age from their lists. */
export function parseAttribution(answer: string): Attribution {
  const { speaker, gender, age } = answerObject(answer);
  if (typeof speaker !== 'string') throw new MalformedAnswerError('no "speaker" string');
  if (!GENDERS.includes(gender as CastGender))
    throw new MalformedAnswerError(`gender is not one of ${GENDERS.join(', ')}`);
  if (!AGES.includes(age as CastAge)) throw new MalformedAnswerError(`age is not one of ${AGES.join(', ')}`);
  // Names are one line of letters; quotes, control characters and runs of spaces have no place in one.
  const name = speaker
    .replace(/[\p{Cc}\uFFFD"“”«»]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_SPEAKER_CHARS);
  return { speaker: name || NARRATOR, gender: gender as CastGender, age: age as CastAge };
}
