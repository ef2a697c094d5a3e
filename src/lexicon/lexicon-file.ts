/** The server's pronunciation lexicon, `<data-dir>/lexicon.json`: read (absent = empty) and replaced whole. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { LexiconDocument } from '../contract/types';
import { validateLexicon } from './lexicon-validation';

export const LEXICON_FILE = 'lexicon.json';

export const lexiconPath = (dataDir: string): string => path.join(dataDir, LEXICON_FILE);

/** The data directory's lexicon; throws when the file is not a valid lexicon (someone edited it by hand). */
export async function readLexicon(dataDir: string): Promise<LexiconDocument> {
  let text: string;
  try {
    text = await fs.readFile(lexiconPath(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [] };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${lexiconPath(dataDir)} is not JSON.`);
  }
  const checked = validateLexicon(parsed);
  if (!checked.ok) throw new Error(`${lexiconPath(dataDir)} is not a valid lexicon: ${checked.message}`);
  return checked.value;
}

/** Replaces the lexicon through a temporary file, so a reader never sees half a document. */
export async function writeLexicon(dataDir: string, document: LexiconDocument): Promise<void> {
  const target = lexiconPath(dataDir);
  const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
  await fs.mkdir(dataDir, { recursive: true });
  try {
    await fs.writeFile(temporary, `${JSON.stringify(document, null, 2)}\n`, 'utf8');
    await fs.rename(temporary, target);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}
