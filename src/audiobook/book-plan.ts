/**
 * What a book job hands the engine (written to the job's folder, so the store and the IPC message stay
 * small) and what it answers: every voice already resolved and checked by the core, every paragraph with
 * its text, and the lexicon the export speaks with.
 */
import type { LexiconEntry, TtsRequest } from '../contract/types';
import type { SsmlTaskMarkup } from '../text/ssml/ssml-markup';
import type { TtsVoiceRef } from '../voices/voice-ref';
import type { WordAnchor } from './read-along/word-anchors';

export type AudiobookFormat = 'm4b' | 'mp3' | 'epub3';

/** A voice the book uses, with the TTS options every paragraph in it is synthesized with. */
export interface BookReading {
  voice: TtsVoiceRef;
  options: Omit<TtsRequest, 'text'>;
}

export interface BookPassage {
  text: string;
  /** Index into `BookPlan.readings`. */
  reading: number;
  /** Read-along books: the sentence's element, which its Media Overlay clip points at. */
  anchor?: { document: string; id: string };
  /** Read-along books: the passage opens a paragraph (a reader's pause before it, a shorter one otherwise). */
  paragraphStart?: boolean;
  /** Word-level read-along books: the sentence's words, each with its element id (offsets in `text`). */
  words?: WordAnchor[];
  /** The text is SSML, with what admission resolved for it. */
  ssml?: SsmlTaskMarkup;
}

export interface BookChapter {
  title: string;
  passages: BookPassage[];
}

export interface BookPlan {
  title?: string;
  author?: string;
  format: AudiobookFormat;
  /** MP3 only: one file per chapter in the folder `out`, instead of one book. */
  perChapter: boolean;
  /** The book to write, or the folder of chapter files; absolute. */
  out: string;
  readings: BookReading[];
  chapters: BookChapter[];
  /** The lexicon the book speaks with (data directory's entries, with the caller's winning). */
  lexicon: LexiconEntry[];
  /** The EPUB 3 to write around the audio, for the epub3 format (read-along/package-plan.ts). */
  readAlong?: ReadAlongPackage;
  /** `word`: the read-along book's overlays point at every word of each sentence, not only at the sentence. */
  overlay?: 'word';
  /** `acx`: each chapter mastered to Audible's rules (src/engine/book/acx.ts), one MP3 per chapter. */
  master?: BookMaster;
  /**
   * An M4B with the `acx` master: the folder the chapter MP3s go to, beside the book. ACX takes one MP3 per
   * chapter, never one file for the book, so the M4B (joined from the same mastered chapters) is not for ACX.
   */
  acxFolder?: string;
  /** Verified takes: every paragraph heard back and retaken when it reads wrong (src/engine/book/verified-take.ts). */
  verify?: BookVerify;
}

export type BookMaster = 'acx';

/** How a take is heard back: by the installed recognizer, or, when none is installed, by aligning the text to it. */
export type TakeScorer =
  { kind: 'recognizer'; modelPath: string; model: string; language: string } | { kind: 'aligner'; language: string };

/** What verified takes ask: the word error rate a take may have, and how many retakes a paragraph gets at most. */
export interface BookVerify {
  /** 0–1; a take over it is retaken (default 0.1). */
  threshold: number;
  /** Retakes after the first take, at most. */
  retakes: number;
  scorer: TakeScorer;
  /** Test hook only: every first take is cut to its first third (verify-admission.ts). */
  corruptFirstTake?: boolean;
}

/** One take of a paragraph: its word error rate as heard back, and the settings it was made with. */
export interface TakeScore {
  take: number;
  wer: number;
  speed: number;
  /** What the recognizer heard (the aligner hears no words of its own: the words it found, in order). */
  heard: string;
}

/** A paragraph's takes: each one's score, the one kept, whether it passed. */
export interface ParagraphTakes {
  /** 1-based, as the chapter list and the editor number them. */
  chapter: number;
  chapterTitle: string;
  paragraph: number;
  text: string;
  takes: TakeScore[];
  /** The take kept (1-based): the lowest word error rate, the earliest of equals. */
  kept: number;
  /** The kept take's word error rate is within the threshold. */
  passed: boolean;
  /** The kept take's audio (a file of the re-export cache), to listen to it. */
  audio: string;
  /** Why the paragraph was not judged (no takes listed): SSML markup is not the words said; too short for the aligner. */
  skipped?: string;
}

/** The verification of a whole book, as the job's result carries it (the full report is in `reportFile`). */
export interface VerifySummary {
  /** How takes were heard: `whisper.cpp ggml-base.en.bin`, `espeak-ng alignment`. */
  scorer: string;
  threshold: number;
  retakes: number;
  paragraphs: number;
  /** Paragraphs that needed more than one take, and those whose kept take is still over the threshold. */
  retaken: ParagraphTakes[];
  stillBad: ParagraphTakes[];
  /** The report beside the book: JSON (every paragraph) and the same as readable text. */
  reportFile: string;
  textFile: string;
}

/** A file's levels as ffmpeg measures them (astats, ebur128), in dB. */
export interface AudioMeasurement {
  rmsDb: number;
  peakDb: number;
  truePeakDb: number;
  /** ffmpeg's astats noise floor: the lowest short-window peak level of the file. */
  noiseFloorDb: number;
}

/** How a mastered chapter file measures against ACX's rules. */
export interface AcxReport {
  file: string;
  measured: AudioMeasurement;
  /** Seconds of room tone mastering put at the head and the tail. */
  headToneSeconds: number;
  tailToneSeconds: number;
  complies: boolean;
  /** One sentence per rule the file breaks, empty when it complies. */
  problems: string[];
}

/** A file of a read-along book's package, by its path inside the archive. */
export interface PackageItem {
  id: string;
  path: string;
  mediaType: string;
  properties?: string;
}

/** Everything of a read-along EPUB 3 but its audio, overlays and package document. */
export interface ReadAlongPackage {
  title: string;
  author?: string;
  language: string;
  identifier: string;
  /** Where the package document goes; manifest paths are archive paths. */
  packagePath: string;
  /** The input EPUB whose files in `copied` are taken as they are. */
  sourceEpub?: string;
  copied: string[];
  /** Files written as given: the marked XHTML documents, and for a new book its nav and chapter documents. */
  written: Array<{ path: string; content: string }>;
  manifest: PackageItem[];
  /** Spine documents, by manifest id, in reading order (`linear: false` for the non-linear ones). */
  spine: Array<{ id: string; linear: boolean }>;
  /** The NCX's manifest id, when the book keeps one. */
  ncxId?: string;
}

export interface TimedChapter {
  title: string;
  seconds: number;
}

/** A finished book job's result. */
export interface BookResult {
  chapters: TimedChapter[];
  /** Paragraphs synthesized now, and those the cache already had. */
  synthesized: number;
  reused: number;
  /** What was written: the book, or the chapter files. */
  files: string[];
  /** With the `acx` master: each chapter file's compliance report, in chapter order. */
  acx?: AcxReport[];
  /** SSML markup the voices could not honour, in the paragraphs synthesized by this export (`ssml phoneme` → why). */
  ignoredOptions?: Record<string, string>;
  /** With verified takes: what was heard back and retaken. */
  verify?: VerifySummary;
  /** A word-level read-along book: how many sentences had their word times from the voice, and how many estimated. */
  wordTimes?: WordTimesSummary;
}

/** Where a word-level read-along book's word times came from, counted in sentences. */
export interface WordTimesSummary {
  /** Timed by the voice's own word events during the book's synthesis (espeak-ng). */
  voice: number;
  /** Estimated in proportion to characters within the sentence's clip (voices that report no word times). */
  estimated: number;
}

/** Where the word times came from, in words (the CLI's output, the package's accessibility summary). */
export function wordTimingLabel(summary: WordTimesSummary): string {
  if (summary.estimated === 0) return "from espeak-ng's word events during the synthesis";
  if (summary.voice === 0)
    return 'estimated in proportion to characters within each sentence (the voice reports no word times)';
  return `from espeak-ng's word events for ${summary.voice} sentences, estimated in proportion to characters for ${summary.estimated} (their voice reports no word times)`;
}

/** The silence between two sentences of a paragraph in a read-along book, where each sentence is its own clip. */
export const SENTENCE_PAUSE_SECONDS = 0.25;
/** The silence between two paragraphs, as a reader pauses. */
export const PARAGRAPH_PAUSE_SECONDS = 0.6;
/** Paragraphs are synthesized at this rate: the chapter encoders take it as it is. */
export const BOOK_SAMPLE_RATE = 44100;
