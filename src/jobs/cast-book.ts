/**
 * Cast Characters (the editor's command, `cli.js audiobook … --cast auto`): every quoted passage of a
 * manuscript attributed to a speaker by the language model in the engine (src/engine/llm/run-attribute.ts),
 * merged into `.speech/cast.json` beside it, and a library voice proposed for each new character by the
 * gender the text gave them. What the writer set (a voice, a corrected line) is never changed; lines already
 * in the cast are not asked again.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { castFilePath, readCastFile, writeCastFile, type CastFile } from '../cast/cast-file';
import { NARRATOR, type QuoteInContext } from '../cast/attribution-prompt';
import { quoteKey, splitQuotes } from '../cast/quotes';
import { readBook } from '../audiobook/read-book';
import { chooseSpeakerVoices } from '../voices/dub-voices';
import { resolveLanguageModel } from '../models/language-models';
import type { EngineHost } from './engine-host';
import { dubVoiceChoices, type DubVoiceSource } from './dub-job';

/** Context a quote is asked with: its paragraph and the one before, at most this many characters. */
const MAX_CONTEXT_CHARS = 800;

export interface CastRequest {
  /** The manuscript (a file or a folder of them, .epub, .docx). */
  input: string;
  /** A .gguf path or an installed model's name; default: chosen by memory. */
  model?: string;
  chapterLevel?: number;
}

export interface CastOutcome {
  /** The cast file written. */
  file: string;
  cast: CastFile;
  /** Quotes found in the manuscript, and how many the model was asked about (the rest were in the cast already). */
  quotes: number;
  asked: number;
}

/** The quotes of a manuscript's text in order, each with its context, once per distinct text. */
export function quotesOf(texts: readonly string[]): QuoteInContext[] {
  const found = new Map<string, QuoteInContext>();
  for (const text of texts) {
    const paragraphs = text
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.trim())
      .filter(Boolean);
    paragraphs.forEach((paragraph, i) => {
      for (const piece of splitQuotes(paragraph)) {
        const key = quoteKey(piece.text);
        if (piece.kind !== 'quote' || found.has(key) || !/[\p{L}\p{N}]/u.test(key)) continue;
        const context = [paragraphs[i - 1], paragraph].filter(Boolean).join('\n\n');
        found.set(key, {
          quote: key,
          context: context.length > MAX_CONTEXT_CHARS ? context.slice(-MAX_CONTEXT_CHARS) : context,
        });
      }
    });
  }
  return [...found.values()];
}

/** The folder a manuscript's `.speech/` lives in: the folder itself, or the file's. */
export async function manuscriptFolder(input: string): Promise<string> {
  const found = await stat(input).catch(() => undefined);
  return found?.isDirectory() ? path.resolve(input) : path.dirname(path.resolve(input));
}

/** Library voices for the characters that have none yet, by their gender, in the book's language. */
export function proposeVoices(cast: CastFile, voices: DubVoiceSource, language: string): CastFile {
  const unvoiced = Object.entries(cast.characters).filter(([, character]) => character.voice === null);
  if (unvoiced.length === 0) return cast;
  const choices = dubVoiceChoices(voices.entries(), language);
  if (choices.female.length + choices.male.length + choices.other.length === 0) return cast;
  const chosen = chooseSpeakerVoices(
    unvoiced.map(([label, character]) => ({
      label,
      gender: character.gender === 'unknown' ? 'unknown' : character.gender,
    })),
    choices,
  );
  const characters = { ...cast.characters };
  for (const [name] of unvoiced) characters[name] = { ...characters[name], voice: chosen.get(name)?.ref.name ?? null };
  return { ...cast, characters };
}

/** Casts the manuscript and writes its cast file; `signal` cancels the model's work, `onProgress` hears 0–100. */
export async function castBook(
  deps: { engine: EngineHost; voices: DubVoiceSource; dataDir: string },
  request: CastRequest,
  signal: AbortSignal,
  onProgress: (progress: number) => void = () => undefined,
): Promise<CastOutcome> {
  const book = await readBook(request.input, request.chapterLevel);
  const file = castFilePath(await manuscriptFolder(request.input));
  const existing = await readCastFile(file);
  const quotes = quotesOf(book.chapters.map((chapter) => chapter.text));
  const toAsk = quotes.filter((quote) => existing.lines[quote.quote] === undefined);
  let cast: CastFile = { characters: { ...existing.characters }, lines: { ...existing.lines } };
  if (toAsk.length > 0) {
    const modelPath = await resolveLanguageModel(deps.dataDir, request.model);
    const { result } = await deps.engine.run(
      `cast-${Date.now()}`,
      { kind: 'cast-attribute', modelPath, quotes: toAsk, known: Object.keys(existing.characters) },
      { signal, onProgress: (_phase, progress) => onProgress(progress) },
    );
    result.attributions.forEach((attribution, i) => {
      cast.lines[toAsk[i].quote] = { speaker: attribution.speaker };
      if (attribution.speaker === NARRATOR) return;
      const known = cast.characters[attribution.speaker];
      cast.characters[attribution.speaker] = known
        ? {
            ...known,
            gender: known.gender === 'unknown' ? attribution.gender : known.gender,
            age: known.age === 'unknown' ? attribution.age : known.age,
          }
        : { voice: null, gender: attribution.gender, age: attribution.age };
    });
  }
  cast = proposeVoices(cast, deps.voices, book.language ?? 'en');
  await writeCastFile(file, cast);
  return { file, cast, quotes: quotes.length, asked: toAsk.length };
}
