/**
 * A workspace's own pronunciation lexicon, `.speech/lexicon.json` (the same document as the server's):
 * read for each editor TTS job, and updated one entry at a time by "Add Pronunciation…".
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { LexiconDocument, LexiconEntry } from '../contract/types';
import { validateLexicon } from './lexicon-validation';
import { entryIdentity } from './merge-lexicon';
import { writeFileAtomic } from '../util/atomic-write';

export const WORKSPACE_LEXICON = path.join('.speech', 'lexicon.json');

export const workspaceLexiconPath = (folder: string): string => path.join(folder, WORKSPACE_LEXICON);

/** The entries, or why the file cannot be used (its path and the bad entry); no file means no entries. */
export type WorkspaceLexicon = { entries: LexiconEntry[]; problem?: undefined } | { entries: []; problem: string };

export async function readWorkspaceLexicon(file: string): Promise<WorkspaceLexicon> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [] };
    return { entries: [], problem: `${file} cannot be read: ${(error as Error).message}` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { entries: [], problem: `${file} is not JSON: ${(error as Error).message}` };
  }
  const checked = validateLexicon(parsed);
  return checked.ok ? { entries: checked.value.entries } : { entries: [], problem: `${file}: ${checked.message}` };
}

/**
 * The file's document with `entry` added, or replacing the entry for the same text and language; the file's
 * other entries are kept as written. Throws when the file exists but is not a valid lexicon (not to lose it).
 */
export async function withEntry(file: string, entry: LexiconEntry): Promise<LexiconDocument> {
  const current = await readWorkspaceLexicon(file);
  if (current.problem !== undefined) throw new Error(`Fix the lexicon first: ${current.problem}`);
  // The entries as written, not as validated (which fills in defaults such as caseSensitive: false).
  const written: LexiconEntry[] = current.entries.length
    ? (JSON.parse(await fs.readFile(file, 'utf8')) as LexiconDocument).entries
    : [];
  const identity = entryIdentity(entry);
  const at = written.findIndex((other) => entryIdentity(other) === identity);
  const entries = [...written];
  if (at >= 0) entries[at] = entry;
  else entries.push(entry);
  const checked = validateLexicon({ entries });
  if (!checked.ok) throw new Error(checked.message);
  return { entries };
}

const PHONEMES_PREFIX = /^phonemes:\s*/i;

/** The entry for `text` from what the user typed: a respelling, or espeak-ng phonemes after `phonemes:`. */
export function entryFromInput(text: string, typed: string): LexiconEntry {
  const value = typed.trim();
  return PHONEMES_PREFIX.test(value)
    ? { text, phonemes: value.replace(PHONEMES_PREFIX, '').trim(), alphabet: 'espeak' }
    : { text, say: value };
}

/** Why one entry breaks the lexicon's rules (without the `entries[0]` prefix), or undefined. */
export function entryProblem(entry: LexiconEntry): string | undefined {
  const checked = validateLexicon({ entries: [entry] });
  return checked.ok ? undefined : checked.message.replace(/^entries\[0\](\.|: )?/, '');
}

/** Writes the document formatted and atomically, creating `.speech/`. */
export async function writeWorkspaceLexicon(file: string, document: LexiconDocument): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify(document, null, 2)}\n`);
}
