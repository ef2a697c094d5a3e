/**
 * Admission of a book job: reads and checks the manuscript and the output place, and resolves every voice
 * the book names (by id or name, ready to speak) and its TTS options once, so the engine receives a plan it
 * can run without a voice library, and a bad request is refused before any synthesis.
 */
import path from 'node:path';
import { checkBookOutput } from '../audiobook/book-output';
import type { AudiobookFormat, BookPlan, BookReading } from '../audiobook/book-plan';
import { BOOK_SAMPLE_RATE } from '../audiobook/book-plan';
import { ManuscriptError, readManuscript } from '../audiobook/manuscript-files';
import { chapterPassages } from '../audiobook/passages';
import { MAX_TTS_TEXT } from '../contract/openapi';
import type { LexiconEntry } from '../contract/types';
import type { Validators } from '../contract/validation';
import type { VoiceLibrary } from '../voices/library';
import type { VoiceEntry } from '../voices/voice-entry';
import { defaultVoice } from '../voices/default-voice';
import { readyVoice } from './admission';

export interface BookRequest {
  /** A Markdown file or a folder of them. */
  input: string;
  /** The book to write; with `perChapter`, the folder that gets one MP3 per chapter. */
  out: string;
  format: AudiobookFormat;
  voiceId?: string;
  /** Heading level that starts a chapter; the manuscript's top level when absent. */
  chapterLevel?: number;
  /** Names of `Name:` prefixes → voice ids or names; added to the front matter's `speakers:`. */
  speakers?: Record<string, string>;
  perChapter?: boolean;
}

/** A voice by id, or by its name (case-insensitive), that is ready to speak. */
function findVoice(library: VoiceLibrary, idOrName: string): VoiceEntry {
  if (library.get(idOrName)) return readyVoice(library, idOrName);
  const wanted = idOrName.trim().toLowerCase();
  for (let page = 1; ; page++) {
    const found = library.list({ scope: 'all', sortBy: 'name', sortDirection: 'asc', page, limit: 100, search: idOrName });
    const match = found.items.find((voice) => voice.name.toLowerCase() === wanted);
    if (match) return readyVoice(library, match.id);
    if (page >= found.meta.totalPages) throw new ManuscriptError(`No voice "${idOrName}" in the voice library (an id or a name from GET /voices).`);
  }
}

/** The plan the engine runs, or a ManuscriptError / ApiError with one sentence. */
export async function admitBook(
  request: BookRequest,
  deps: { voices: VoiceLibrary; validators: Validators; lexicon: readonly LexiconEntry[] },
): Promise<BookPlan> {
  const out = path.resolve(request.out);
  const perChapter = request.perChapter === true;
  if (perChapter && request.format !== 'mp3') throw new ManuscriptError('One file per chapter is made as MP3; use the mp3 format.');
  await checkBookOutput(out, perChapter);
  const book = await readManuscript(path.resolve(request.input), request.chapterLevel);
  const speakers = { ...book.speakers, ...request.speakers };

  const readings: BookReading[] = [];
  const readingIndex = new Map<string, number>();
  const indexOf = (entry: VoiceEntry): number => {
    const known = readingIndex.get(entry.voice.id);
    if (known !== undefined) return known;
    const checked = deps.validators.ttsRequest({ voiceId: entry.voice.id, text: '-', outputFormat: 'wav', sampleRate: BOOK_SAMPLE_RATE });
    if (!checked.ok) throw new ManuscriptError(checked.message);
    const { text: _text, ...options } = checked.value;
    readings.push({ voice: entry.ref, options });
    readingIndex.set(entry.voice.id, readings.length - 1);
    return readings.length - 1;
  };
  const bookReading = indexOf(request.voiceId ? findVoice(deps.voices, request.voiceId) : defaultVoice(deps.voices));
  const asked = new Map<string, number>();
  const readingFor = (voice: string | undefined): number => {
    if (voice === undefined) return bookReading;
    if (!asked.has(voice)) asked.set(voice, indexOf(findVoice(deps.voices, voice)));
    return asked.get(voice)!;
  };

  let carried: string | undefined;
  const chapters = book.chapters.map((chapter) => {
    const { passages, endVoice } = chapterPassages(chapter.text, speakers, carried);
    carried = endVoice;
    const tooLong = passages.find((passage) => passage.text.length > MAX_TTS_TEXT);
    if (tooLong) {
      throw new ManuscriptError(`Chapter "${chapter.title}" has a paragraph of ${tooLong.text.length} characters, more than the ${MAX_TTS_TEXT} one paragraph may hold; split it with a blank line.`);
    }
    return { title: chapter.title, passages: passages.map((passage) => ({ text: passage.text, reading: readingFor(passage.voice) })) };
  });
  return {
    ...(book.title ? { title: book.title } : {}), ...(book.author ? { author: book.author } : {}),
    format: request.format, perChapter, out, readings, chapters, lexicon: [...deps.lexicon],
  };
}
