/**
 * The cast of a book, `.speech/cast.json` beside the manuscript: each character with the voice that reads
 * them (and the gender and age the model read in the text, as hints for choosing one), and who speaks each
 * quoted line. The model proposes it; the writer edits it, and what the writer set (a voice, a line marked
 * `corrected`) is kept when the book is cast again.
 *
 * @example { "characters": { "Ann": { "voice": "Kokoro af_bella", "gender": "female", "age": "adult" } },
 *            "lines": { "Hello there.": { "speaker": "Ann" }, "Go away!": { "speaker": "Bob", "corrected": true } } }
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AGES, GENDERS, NARRATOR, type CastAge, type CastGender } from './attribution-prompt';

export interface CastCharacter {
  /** A voice id or name from the voice library; null: the book's voice. */
  voice: string | null;
  gender: CastGender;
  age: CastAge;
}

export interface CastLine {
  speaker: string;
  /** Set by the writer (or the editor's correction): the model never changes this line again. */
  corrected?: true;
}

export interface CastFile {
  characters: Record<string, CastCharacter>;
  /** By the quote's text (quoteKey). */
  lines: Record<string, CastLine>;
}

export const CAST_FILE = path.join('.speech', 'cast.json');

/** A cast file that cannot be read, in one sentence. */
export class CastFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CastFileError';
  }
}

/** `.speech/cast.json` in `folder`. */
export const castFilePath = (folder: string): string => path.join(folder, CAST_FILE);

/** Reads the cast file; an empty cast when there is none; a CastFileError naming what is wrong. */
export async function readCastFile(file: string): Promise<CastFile> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new CastFileError(`${file} cannot be read (${error.code ?? error.message}).`);
  });
  if (text === undefined) return { characters: {}, lines: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CastFileError(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return checkCast(value, file);
}

function checkCast(value: unknown, file: string): CastFile {
  const cast = value as Partial<CastFile> | null;
  if (
    typeof cast !== 'object' ||
    cast === null ||
    typeof cast.characters !== 'object' ||
    cast.characters === null ||
    typeof cast.lines !== 'object' ||
    cast.lines === null
  ) {
    throw new CastFileError(`${file} needs "characters" and "lines" objects.`);
  }
  const characters: Record<string, CastCharacter> = {};
  for (const [name, character] of Object.entries(cast.characters)) {
    const c = character as Partial<CastCharacter> | null;
    if (typeof c !== 'object' || c === null)
      throw new CastFileError(`${file}: the character "${name}" is not an object.`);
    if (c.voice !== undefined && c.voice !== null && typeof c.voice !== 'string')
      throw new CastFileError(`${file}: the voice of "${name}" is not a voice id or name.`);
    characters[name] = {
      voice: c.voice ?? null,
      gender: GENDERS.includes(c.gender as CastGender) ? (c.gender as CastGender) : 'unknown',
      age: AGES.includes(c.age as CastAge) ? (c.age as CastAge) : 'unknown',
    };
  }
  const lines: Record<string, CastLine> = {};
  for (const [quote, line] of Object.entries(cast.lines)) {
    const l = line as Partial<CastLine> | null;
    if (typeof l !== 'object' || l === null || typeof l.speaker !== 'string' || l.speaker.trim() === '')
      throw new CastFileError(`${file}: the line ${JSON.stringify(quote.slice(0, 40))} has no speaker.`);
    lines[quote] = { speaker: l.speaker.trim(), ...(l.corrected === true ? { corrected: true as const } : {}) };
  }
  return { characters, lines };
}

/** Writes the cast file (through a temporary file, so the editor never reads half of it). */
export async function writeCastFile(file: string, cast: CastFile): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  await writeFile(partial, `${JSON.stringify(cast, null, 2)}\n`, 'utf8');
  await rename(partial, file);
}

/** The voice that reads a quote: its speaker's, when the cast gives that speaker one (the narrator's is the book's). */
export function voiceOfQuote(cast: CastFile, key: string): string | undefined {
  const speaker = cast.lines[key]?.speaker;
  if (!speaker || speaker === NARRATOR) return undefined;
  return cast.characters[speaker]?.voice ?? undefined;
}

/** The cast with a correction: `speaker` says the line, and the writer said so (kept when cast again). */
export function correctLine(cast: CastFile, key: string, speaker: string): CastFile {
  const characters =
    cast.characters[speaker] || speaker === NARRATOR
      ? cast.characters
      : { ...cast.characters, [speaker]: { voice: null, gender: 'unknown' as const, age: 'unknown' as const } };
  return { characters, lines: { ...cast.lines, [key]: { speaker, corrected: true } } };
}
