/**
 * Checks a pronunciation lexicon document: the contract's JSON Schema (src/contract/lexicon-schema.ts), then
 * the rules a schema says badly. Every message names the bad entry as `entries[3].text: …`.
 */
import type { ErrorObject } from 'ajv/dist/2020';
import { lexiconSchemas, PHONEME_FORBIDDEN } from '../contract/lexicon-schema';
import type { LexiconDocument, LexiconEntry } from '../contract/types';
import { describeError, newAjv, type Validation } from '../contract/validation';

let compiled: (((data: unknown) => boolean) & { errors?: ErrorObject[] | null }) | undefined;
const schemaCheck = () => (compiled ??= newAjv(false).compile(lexiconSchemas.Lexicon));

/** `entries.3.text` as people read it: `entries[3].text`. */
const entryPath = (message: string): string => message.replace(/\.(\d+)(?=[.:])/g, '[$1]');

export function validateLexicon(body: unknown): Validation<LexiconDocument> {
  const data = body !== null && typeof body === 'object' && !Array.isArray(body) ? structuredClone(body) : body;
  const check = schemaCheck();
  if (!check(data)) {
    const error = check.errors?.[0];
    const at = entryPath(`${error?.instancePath.slice(1).replace(/\//g, '.')}:`).slice(0, -1);
    if (error?.keyword === 'pattern' && error.instancePath.endsWith('/phonemes')) {
      return { ok: false, message: `${at}: must not contain any of ${PHONEME_FORBIDDEN.split('').join(' ')}` };
    }
    if (error?.keyword === 'additionalProperties' && at !== '') {
      return { ok: false, message: `${at}.${describeError(error, 'body')}` };
    }
    return { ok: false, message: entryPath(describeError(error, 'body')) };
  }
  const document = data as LexiconDocument;
  const problem = entryProblem(document.entries);
  return problem ? { ok: false, message: problem } : { ok: true, value: document };
}

function entryProblem(entries: readonly LexiconEntry[]): string | undefined {
  const seen = new Map<string, number>();
  for (const [index, entry] of entries.entries()) {
    const at = `entries[${index}]`;
    if (!/[\p{L}\p{N}]/u.test(entry.text)) return `${at}.text: must contain a letter or a digit`;
    if (entry.phonemes !== undefined && entry.alphabet === undefined)
      return `${at}.alphabet: is required with phonemes; use "espeak"`;
    if (entry.alphabet !== undefined && entry.phonemes === undefined)
      return `${at}.phonemes: is required with alphabet`;
    if (entry.say === undefined && entry.phonemes === undefined) return `${at}: needs say (a respelling) or phonemes`;
    const key = JSON.stringify([entryKey(entry), entry.language?.toLowerCase() ?? null]);
    const first = seen.get(key);
    if (first !== undefined) return `${at}.text: ${JSON.stringify(entry.text)} is already entries[${first}]`;
    seen.set(key, index);
  }
  return undefined;
}

function entryKey(entry: LexiconEntry): string {
  const words = entry.text.trim().replace(/\s+/g, ' ');
  return entry.caseSensitive ? `=${words}` : `~${words.toLowerCase()}`;
}
