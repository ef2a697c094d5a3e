/**
 * The JSON Schema of the pronunciation lexicon document (GET/PUT /lexicon, `<data-dir>/lexicon.json`).
 * The rules a schema cannot say well (an entry needs `say` or `phonemes`, no entry twice) live in
 * src/lexicon/lexicon-validation.ts.
 */

export const MAX_LEXICON_ENTRIES = 5000;
/** Characters that would let a phoneme string leave espeak-ng's `[[…]]` or its SSML input. */
export const PHONEME_FORBIDDEN = '[]<>&';

const lexiconEntry = {
  type: 'object',
  description:
    "A word or phrase and what to say instead: `say`, a respelling every engine speaks, and/or `phonemes` in espeak-ng's " +
    'phoneme mnemonics (`alphabet: "espeak"`), which espeak-ng voices speak as written; other engines speak `say` ' +
    "instead, or leave the word (the job result's `lexicon.skipped` says so).",
  additionalProperties: false,
  required: ['text'],
  properties: {
    text: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'The word or phrase, matched as whole words (spaces match any spacing).',
    },
    say: {
      type: 'string',
      minLength: 1,
      maxLength: 500,
      description: 'A respelling spoken instead, e.g. "koh ah" for Koa.',
    },
    phonemes: {
      type: 'string',
      minLength: 1,
      maxLength: 500,
      pattern: '^[^\\[\\]<>&]+$',
      description: 'espeak-ng phoneme mnemonics, e.g. "dZIf" for GIF; needs `alphabet`.',
    },
    alphabet: { type: 'string', enum: ['espeak'], description: 'The phoneme alphabet; espeak-ng mnemonics only.' },
    caseSensitive: {
      type: 'boolean',
      default: false,
      description: 'Match the exact case only (e.g. "US" but not "us").',
    },
    language: {
      type: 'string',
      minLength: 1,
      maxLength: 35,
      pattern: '^[A-Za-z0-9-]+$',
      description: 'Only for jobs spoken in this language (en matches en-US); every language when absent.',
    },
  },
} as const;

export const lexiconSchemas = {
  Lexicon: {
    type: 'object',
    description:
      'The pronunciation lexicon: every TTS job created after a PUT applies its entries before synthesis. Longer entries ' +
      'win over shorter ones they overlap; case-insensitive unless `caseSensitive`.',
    additionalProperties: false,
    required: ['entries'],
    properties: {
      entries: { type: 'array', maxItems: MAX_LEXICON_ENTRIES, items: lexiconEntry },
    },
  },
  LexiconReport: {
    type: 'object',
    description: 'Jobs whose text has lexicon entries: the entries applied, and those the engine could not speak.',
    required: ['applied', 'skipped'],
    properties: {
      applied: { type: 'array', items: { type: 'string' }, description: 'The `text` of each entry applied.' },
      skipped: {
        type: 'array',
        items: {
          type: 'object',
          required: ['text', 'reason'],
          properties: { text: { type: 'string' }, reason: { type: 'string' } },
        },
      },
    },
  },
} as const;
