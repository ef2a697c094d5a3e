/** The server's pronunciation lexicon, `<data-dir>/lexicon.json`: read (absent = empty) and replaced whole. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { LexiconDocument } from '../contract/types';
import { ApiError } from '../contract/errors';
import { writeFileAtomic } from '../util/atomic-write';
import { validateLexicon } from './lexicon-validation';

export const LEXICON_FILE = 'lexicon.json';

export const lexiconPath = (dataDir: string): string => path.join(dataDir, LEXICON_FILE);

/**
 * The data directory's lexicon. A file that is not a valid lexicon (edited by hand, or damaged) is an
 * INTERNAL_ERROR that names the file and the way out, so no job speaks without the lexicon in silence.
 */
export async function readLexicon(dataDir: string): Promise<LexiconDocument> {
  const file = lexiconPath(dataDir);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [] };
    throw error;
  }
  try {
    // Every TTS job reads the lexicon: parse and check a file of thousands of entries once per version of
    // it, not once per job. Writes replace the file (a new inode), so the key changes with every write.
    const stats = await handle.stat();
    const version = `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
    const cached = readCache.get(file);
    if (cached?.version === version) return cached.document;
    const document = parseLexicon(dataDir, await handle.readFile('utf8'));
    readCache.delete(file);
    readCache.set(file, { version, document });
    if (readCache.size > READ_CACHE_FILES) readCache.delete(readCache.keys().next().value!);
    return document;
  } finally {
    await handle.close();
  }
}

/** Data directories whose parsed lexicon is kept (a process serves one; tests start many). */
const READ_CACHE_FILES = 4;
const readCache = new Map<string, { version: string; document: LexiconDocument }>();

function parseLexicon(dataDir: string, text: string): LexiconDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw unreadable(dataDir, 'is not JSON');
  }
  const checked = validateLexicon(parsed);
  if (!checked.ok) throw unreadable(dataDir, `is not a valid lexicon (${checked.message})`);
  return checked.value;
}

const unreadable = (dataDir: string, why: string): ApiError =>
  new ApiError(
    'INTERNAL_ERROR',
    `The pronunciation lexicon ${lexiconPath(dataDir)} ${why}: correct the file, or replace it with PUT /lexicon.`,
  );

/** Replaces the lexicon atomically, writes in turn, so a reader never sees half a document. */
export async function writeLexicon(dataDir: string, document: LexiconDocument): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true });
  await writeFileAtomic(lexiconPath(dataDir), `${JSON.stringify(document, null, 2)}\n`);
}
