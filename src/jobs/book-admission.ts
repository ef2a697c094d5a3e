/**
 * Admission of a book job: reads and checks the manuscript and the output place, and resolves every voice
 * the book names (by id or name, ready to speak) and its TTS options once, so the engine receives a plan it
 * can run without a voice library, and a bad request is refused before any synthesis.
 */
import path from 'node:path';
import { acxFolderFor, checkBookOutput } from '../audiobook/book-output';
import type {
  AudiobookFormat,
  BookChapter,
  BookMaster,
  BookPassage,
  BookPlan,
  BookReading,
} from '../audiobook/book-plan';
import { ApiError, hasCode } from '../contract/errors';
import type { SsmlTaskMarkup } from '../engine-api/protocol';
import { admitSsml } from './ssml-admission';
import { BOOK_SAMPLE_RATE } from '../audiobook/book-plan';
import { selectChapters } from '../audiobook/chapter-selection';
import type { ChapterParagraph } from '../audiobook/manuscript';
import { ManuscriptError, manuscriptFiles } from '../audiobook/manuscript-files';
import { refuseOutputOverInput } from '../local-files/user-files';
import { chapterPassages } from '../audiobook/passages';
import type { CastFile } from '../cast/cast-file';
import {
  newChapterPath,
  readAlongFromEpub,
  readAlongFromText,
  sentencesOf,
  type OverlayLevel,
} from '../audiobook/read-along/package-plan';
import { bookKind, readBook } from '../audiobook/read-book';
import { MAX_TTS_TEXT } from '../contract/openapi';
import type { LexiconEntry } from '../contract/types';
import type { Validators } from '../contract/validation';
import type { VoiceLibrary } from '../voices/library';
import type { VoiceEntry } from '../voices/voice-entry';
import { defaultVoice } from '../voices/default-voice';
import { readyVoice } from './admission';
import { admitVerify, type VerifyRequest, type VerifyTestHooks } from './verify-admission';

export interface BookRequest {
  /** A Markdown or text file or a folder of them, an .epub or a .docx. */
  input: string;
  /** The book to write; with `perChapter`, the folder that gets one MP3 per chapter. */
  out: string;
  format: AudiobookFormat;
  /** A read-along book's overlays: each sentence (the default) or each word of each sentence. */
  overlay?: OverlayLevel;
  voiceId?: string;
  /** Heading level that starts a chapter; the manuscript's top level when absent. */
  chapterLevel?: number;
  /** Names of `Name:` prefixes → voice ids or names; added to the front matter's `speakers:`. */
  speakers?: Record<string, string>;
  perChapter?: boolean;
  /** The chapters to read (`3-7,9`, 1-based, or `all`); the body chapters (no front or back matter) when absent. */
  chapters?: string;
  /** `acx`: master each chapter to Audible's rules; needs one MP3 per chapter. */
  master?: BookMaster;
  /** Who reads each quote (`.speech/cast.json`, src/cast/): quotes are read by their speaker's voice. */
  cast?: CastFile;
  /** Verified takes: each paragraph heard back and retaken when it reads wrong (verify-admission.ts). */
  verify?: VerifyRequest;
}

/** A voice by id, or by its name (case-insensitive), that is ready to speak. */
function findVoice(library: VoiceLibrary, idOrName: string): VoiceEntry {
  if (library.get(idOrName)) return readyVoice(library, idOrName);
  const wanted = idOrName.trim().toLowerCase();
  for (let page = 1; ; page++) {
    const found = library.list({
      scope: 'all',
      sortBy: 'name',
      sortDirection: 'asc',
      page,
      limit: 100,
      search: idOrName,
    });
    const match = found.items.find((voice) => voice.name.toLowerCase() === wanted);
    if (match) return readyVoice(library, match.id);
    if (page >= found.meta.totalPages)
      throw new ManuscriptError(`No voice "${idOrName}" in the voice library (an id or a name from GET /voices).`);
  }
}

/**
 * The book's voice when none is named: the default rule in the book's language; for word overlays an
 * espeak-ng voice of that language first, the voice that reports its word times (any other has them
 * estimated by characters), and the default rule only when espeak-ng speaks no such language.
 */
function unnamedBookVoice(voices: VoiceLibrary, language: string | undefined, level: OverlayLevel): VoiceEntry {
  const wish = language ? { language, textLanguage: true } : {};
  if (level === 'word') {
    const timed = {
      get: (id: string) => voices.get(id),
      entries: () => voices.entries().filter((entry) => entry.engine === 'espeak-ng'),
    };
    try {
      return defaultVoice(timed, wish);
    } catch (error) {
      if (!hasCode(error, 'VOICE_NOT_READY')) throw error;
    }
  }
  return defaultVoice(voices, wish);
}

/** The passages, once checked to fit in one synthesis each. */
function checkLength<T extends { text: string }>(title: string, passages: T[]): T[] {
  const tooLong = passages.find((passage) => passage.text.length > MAX_TTS_TEXT);
  if (tooLong) {
    throw new ManuscriptError(
      `Chapter "${title}" has a paragraph of ${tooLong.text.length} characters, more than the ${MAX_TTS_TEXT} one paragraph may hold; split it with a blank line.`,
    );
  }
  return passages;
}

/** An SSML passage admitted by the core's rule; its `<audio>` files come from the manuscript's folder. */
async function bookSsml(text: string, chapter: string, voices: VoiceLibrary, folder: string): Promise<SsmlTaskMarkup> {
  try {
    return await admitSsml(text, voices, [folder], 'ssml', { passage: true });
  } catch (error) {
    if (error instanceof ApiError)
      throw new ManuscriptError(`Chapter "${chapter}", an SSML block: ${error.message.replace(/^ssml: /, '')}`);
    throw error;
  }
}

/** The plan the engine runs, or a ManuscriptError / ApiError with one sentence. */
export async function admitBook(
  request: BookRequest,
  deps: {
    voices: VoiceLibrary;
    validators: Validators;
    lexicon: readonly LexiconEntry[];
    dataDir: string;
    testHooks?: VerifyTestHooks;
  },
): Promise<BookPlan> {
  const out = path.resolve(request.out);
  const perChapter = request.perChapter === true;
  if (perChapter && request.format !== 'mp3')
    throw new ManuscriptError('One file per chapter is made as MP3; use the mp3 format.');
  if (request.master !== undefined && request.master !== 'acx')
    throw new ManuscriptError(`The mastering preset must be acx, not ${String(request.master).slice(0, 40)}.`);
  if (request.master === 'acx' && request.format !== 'm4b' && !(perChapter && request.format === 'mp3')) {
    throw new ManuscriptError(
      'ACX takes one MP3 per chapter, never one file for the book: export with one file per chapter (--per-chapter) as MP3, or as an M4B, which then comes with the chapter MP3s for ACX in a folder beside it.',
    );
  }
  if (request.overlay !== undefined && request.overlay !== 'sentence' && request.overlay !== 'word')
    throw new ManuscriptError(
      `The overlay level must be sentence or word, not ${String(request.overlay).slice(0, 40)}.`,
    );
  if (request.overlay === 'word' && request.format !== 'epub3')
    throw new ManuscriptError('Word-level overlays belong to a read-along book: export as EPUB 3 (--format epub3).');
  const level: OverlayLevel = request.overlay ?? 'sentence';
  await checkBookOutput(out, perChapter);
  // ACX refuses a single file for the book: an M4B mastered for it comes with the chapter MP3s ACX takes.
  const acxFolder = request.master === 'acx' && request.format === 'm4b' ? acxFolderFor(out) : undefined;
  if (acxFolder) await checkBookOutput(acxFolder, true);
  const input = path.resolve(request.input);
  const inputFiles =
    bookKind(input) === 'manuscript' ? (await manuscriptFiles(input)).map(({ file }) => file) : [input];
  if (!perChapter) await refuseOutputOverInput(out, inputFiles, 'book');
  const book = await readBook(input, request.chapterLevel);
  const chosen = selectChapters(book.chapters, request.chapters);
  const speakers = { ...book.speakers, ...request.speakers };

  const readings: BookReading[] = [];
  const readingIndex = new Map<string, number>();
  const indexOf = (entry: VoiceEntry): number => {
    const known = readingIndex.get(entry.voice.id);
    if (known !== undefined) return known;
    const checked = deps.validators.ttsRequest({
      voiceId: entry.voice.id,
      text: '-',
      outputFormat: 'wav',
      sampleRate: BOOK_SAMPLE_RATE,
    });
    if (!checked.ok) throw new ManuscriptError(checked.message);
    const { text: _text, ...options } = checked.value;
    readings.push({ voice: entry.ref, options });
    readingIndex.set(entry.voice.id, readings.length - 1);
    return readings.length - 1;
  };
  // Unnamed, the book's voice is one of the book's own language: an English voice would garble an Arabic book.
  const bookReading = indexOf(
    request.voiceId ? findVoice(deps.voices, request.voiceId) : unnamedBookVoice(deps.voices, book.language, level),
  );
  const asked = new Map<string, number>();
  const readingFor = (voice: string | undefined): number => {
    if (voice === undefined) return bookReading;
    if (!asked.has(voice)) asked.set(voice, indexOf(findVoice(deps.voices, voice)));
    return asked.get(voice)!;
  };

  let carried: string | undefined;
  const readAlong = request.format === 'epub3';
  const language = book.language ?? 'en';
  const folder = path.dirname(input);
  const sentenced: Array<{ title: string; paragraphs: ChapterParagraph[] }> = [];
  const chapters: BookChapter[] = [];
  for (const [index, chapter] of chosen.entries()) {
    if (readAlong && chapter.paragraphs) {
      // An EPUB's chapter: one passage per sentence, pointed at by the id its document now carries.
      const passages = chapter.paragraphs.flatMap((paragraph) =>
        paragraph.sentences.map((sentence, at) => ({
          text: sentence.text,
          reading: bookReading,
          anchor: { document: paragraph.document ?? '', id: sentence.id },
          paragraphStart: at === 0,
          ...(level === 'word' && sentence.words ? { words: sentence.words } : {}),
        })),
      );
      chapters.push({ title: chapter.title, passages: checkLength(chapter.title, passages) });
      continue;
    }
    const { passages, endVoice } = chapterPassages(chapter.text, speakers, carried, request.cast);
    carried = endVoice;
    checkLength(chapter.title, passages);
    if (readAlong) {
      // A read-along book times each sentence of the text; markup that shapes the speech has no sentences to point at.
      if (passages.some((passage) => passage.ssml))
        throw new ManuscriptError(
          `Chapter "${chapter.title}" has an SSML block, which a read-along book cannot carry yet; export it as M4B or MP3.`,
        );
      const document = newChapterPath(index);
      const paragraphs = sentencesOf(
        passages.map((passage) => passage.text),
        document,
        `c${index + 1}-s`,
        language,
        level,
      );
      sentenced.push({ title: chapter.title, paragraphs });
      chapters.push({
        title: chapter.title,
        passages: paragraphs.flatMap((paragraph, at) =>
          paragraph.sentences.map((sentence, n) => ({
            text: sentence.text,
            reading: readingFor(passages[at].voice),
            anchor: { document, id: sentence.id },
            paragraphStart: n === 0,
            ...(sentence.words ? { words: sentence.words } : {}),
          })),
        ),
      });
      continue;
    }
    const planned: BookPassage[] = [];
    for (const passage of passages) {
      const ssml = passage.ssml ? await bookSsml(passage.text, chapter.title, deps.voices, folder) : undefined;
      planned.push({ text: passage.text, reading: readingFor(passage.voice), ...(ssml ? { ssml } : {}) });
    }
    chapters.push({ title: chapter.title, passages: planned });
  }
  if (chapters.length === 0) throw new ManuscriptError(`${request.input} has no chapters to read.`);
  // Takes are heard in the language of the book's own voice.
  const verify = request.verify
    ? await admitVerify(request.verify, deps.dataDir, readings[bookReading].voice.languageCode, deps.testHooks)
    : undefined;
  const meta = { ...(book.title ? { title: book.title } : {}), ...(book.author ? { author: book.author } : {}) };
  return {
    ...meta,
    format: request.format,
    perChapter,
    out,
    readings,
    chapters,
    lexicon: [...deps.lexicon],
    ...(request.master ? { master: request.master } : {}),
    ...(acxFolder ? { acxFolder } : {}),
    ...(verify ? { verify } : {}),
    ...(readAlong
      ? {
          readAlong: book.epub
            ? readAlongFromEpub(book.epub, input, chosen, level)
            : readAlongFromText({ ...meta, language }, sentenced),
        }
      : {}),
    ...(level === 'word' ? { overlay: 'word' as const } : {}),
  };
}
