/**
 * `node dist/cli.js audiobook <file.md|folder> --out book.m4b`: exports the book as a job of the job core
 * (src/jobs/book-export.ts, as the editor does), printing its progress; Ctrl+C cancels the job, which leaves
 * no partial book.
 */
import path from 'node:path';
import {
  wordTimingLabel,
  type AcxReport,
  type AudiobookFormat,
  type BookMaster,
  type ParagraphTakes,
  type VerifySummary,
} from '../audiobook/book-plan';
import type { OverlayLevel } from '../audiobook/read-along/package-plan';
import { MAX_VERIFY_RETAKES, type VerifyRequest } from '../jobs/verify-admission';
import { parseSpeakerList } from '../audiobook/passages';
import { UsageError } from '../util/usage-error';
import { paragraphLine } from '../audiobook/takes-lines';
import { acxFolderFor } from '../audiobook/book-output';
import { CliCancelled } from './cancel-signals';
import { runCliJob, type CliJobPlace } from './run-cli-job';
import type { CliJobCore } from '../host/cli-job-core';
import type { CastFile } from '../cast/cast-file';

export interface AudiobookFlags {
  out?: string;
  voice?: string;
  format?: string;
  'chapter-level'?: string;
  speakers?: string;
  /** `auto`: cast the dialogue with the language model (`.speech/cast.json`) and read each quote by its speaker's voice. */
  cast?: string;
  'per-chapter'?: boolean;
  chapters?: string;
  'list-chapters'?: boolean;
  master?: string;
  /** A read-along book's overlays: `sentence` (the default) or `word`. */
  overlay?: string;
  verify?: boolean;
  'verify-threshold'?: string;
  'verify-takes'?: string;
}

const FORMATS: readonly AudiobookFormat[] = ['m4b', 'mp3', 'epub3'];

/** The format the flags ask for, or the one `--out`'s extension names. */
function formatOf(flags: AudiobookFlags, perChapter: boolean): string {
  if (flags.format) return flags.format;
  const extension = path.extname(flags.out ?? '').toLowerCase();
  return perChapter || extension === '.mp3' ? 'mp3' : extension === '.epub' ? 'epub3' : 'm4b';
}

/** `--list-chapters`: the book's chapters, numbered as --chapters takes them, front and back matter marked. */
async function listChapters(input: string, level: number | undefined): Promise<number> {
  const { readBook } = await import('../audiobook/read-book');
  const book = await readBook(path.resolve(input), level);
  for (const [index, chapter] of book.chapters.entries()) {
    const matter =
      chapter.matter && chapter.matter !== 'body' ? `  (${chapter.matter} matter, skipped unless named)` : '';
    console.log(`${String(index + 1).padStart(3)}  ${chapter.title}${matter}`);
  }
  return 0;
}

const decibels = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(1)} dB` : 'silence');

/** One chapter file's ACX compliance, as measured by ffmpeg. */
function acxLine(report: AcxReport): string {
  const { rmsDb, truePeakDb, noiseFloorDb } = report.measured;
  const figures = `RMS ${decibels(rmsDb)}, true peak ${decibels(truePeakDb)}, noise floor ${decibels(noiseFloorDb)}`;
  return `ACX ${report.complies ? 'complies' : 'does not comply'}: ${path.basename(report.file)}: ${figures}${report.problems.length ? `. ${report.problems.join(' ')}` : ''}`;
}

/** A casting progress line at most every this many percent, as a job's. */
const CAST_PROGRESS_STEP = 10;

/** `--cast auto`: the manuscript's dialogue cast (its cast file written or brought up to date), and printed; `signal` cancels it. */
async function castForBook(
  core: CliJobCore,
  input: string,
  level: number | undefined,
  dataDir: string,
  signal: AbortSignal,
): Promise<CastFile> {
  const { castBook } = await import('../jobs/cast-book');
  let shown = -CAST_PROGRESS_STEP;
  const outcome = await castBook(
    { engine: core.engine, voices: core.voices, dataDir },
    { input, ...(level ? { chapterLevel: level } : {}) },
    signal,
    (progress) => {
      if (progress < shown + CAST_PROGRESS_STEP || progress >= 100) return;
      shown = Math.floor(progress);
      console.log(`Casting the dialogue: ${shown}%`);
    },
  );
  console.log(`Cast ${outcome.quotes} quoted lines (${outcome.asked} asked of the model) into ${outcome.file}:`);
  for (const [name, character] of Object.entries(outcome.cast.characters)) {
    const lines = Object.values(outcome.cast.lines).filter((line) => line.speaker === name).length;
    console.log(
      `  ${name} (${character.gender}, ${character.age}): ${character.voice ?? "the book's voice"}, ${lines} line(s)`,
    );
  }
  return outcome.cast;
}

/** `--verify` and its two settings, checked as flags (the core checks their ranges). */
function verifyOf(flags: AudiobookFlags): VerifyRequest | undefined {
  if (!flags.verify) {
    if (flags['verify-threshold'] !== undefined || flags['verify-takes'] !== undefined)
      throw new UsageError('--verify-threshold and --verify-takes go with --verify.');
    return undefined;
  }
  const threshold = flags['verify-threshold'] === undefined ? undefined : Number(flags['verify-threshold']);
  const retakes = flags['verify-takes'] === undefined ? undefined : Number(flags['verify-takes']);
  if (threshold !== undefined && !(Number.isFinite(threshold) && threshold >= 0 && threshold <= 1))
    throw new UsageError('--verify-threshold must be a word error rate from 0 to 1 (0.1 is 10 %).');
  if (retakes !== undefined && !(Number.isInteger(retakes) && retakes >= 0 && retakes <= MAX_VERIFY_RETAKES))
    throw new UsageError(`--verify-takes must be a whole number of retakes from 0 to ${MAX_VERIFY_RETAKES}.`);
  return { ...(threshold !== undefined ? { threshold } : {}), ...(retakes !== undefined ? { retakes } : {}) };
}

/** The verification's lines: how takes were heard, each retaken or still-bad paragraph, and where the report is. */
function printVerify(summary: VerifySummary): void {
  console.log(
    `Verified ${summary.paragraphs} paragraphs with ${summary.scorer}: ${summary.retaken.length} retaken, ${summary.stillBad.length} still over ${(summary.threshold * 100).toFixed(1)} % WER.`,
  );
  const named = new Map<string, ParagraphTakes>(
    [...summary.retaken, ...summary.stillBad].map((paragraph) => [
      `${paragraph.chapter}.${paragraph.paragraph}`,
      paragraph,
    ]),
  );
  for (const paragraph of named.values()) console.log(paragraphLine(paragraph));
  console.log(`Takes report: ${summary.textFile} (and ${path.basename(summary.reportFile)})`);
}

/** Runs the export; answers the exit code (130 or 143 when Ctrl+C or SIGTERM cancelled it). */
export async function runAudiobookCommand(
  input: string | undefined,
  flags: AudiobookFlags,
  place: CliJobPlace,
): Promise<number> {
  const { dataDir } = place;
  if (!input) throw new UsageError('Expected "audiobook <file.md|.epub|.docx|folder> --out book.m4b".');
  const level = flags['chapter-level'] === undefined ? undefined : Number(flags['chapter-level']);
  if (level !== undefined && !(Number.isInteger(level) && level >= 1 && level <= 6))
    throw new UsageError('--chapter-level must be 1 to 6.');
  if (flags['list-chapters']) return listChapters(input, level);
  if (!flags.out) throw new UsageError('audiobook needs --out, the book to write (e.g. book.m4b).');
  const perChapter = flags['per-chapter'] === true;
  const format = formatOf(flags, perChapter) as AudiobookFormat;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be m4b, mp3 or epub3, not ${flags.format}.`);
  if (perChapter && format !== 'mp3')
    throw new UsageError('--per-chapter writes MP3 files; leave out --format or use --format mp3.');

  if (flags.overlay !== undefined && flags.overlay !== 'sentence' && flags.overlay !== 'word')
    throw new UsageError(`--overlay takes sentence or word, not "${flags.overlay}".`);
  if (flags.overlay === 'word' && format !== 'epub3')
    throw new UsageError(
      '--overlay word makes a read-along book: use it with --format epub3 (or an --out ending in .epub).',
    );
  if (flags.cast !== undefined && flags.cast !== 'auto')
    throw new UsageError(`--cast takes auto (cast the dialogue with the language model), not "${flags.cast}".`);

  const verify = verifyOf(flags);
  const { createBookExport, finishBookExport } = await import('../jobs/book-export');
  const out = flags.out;
  const result = await runCliJob(place, {
    create: async (core, signal) =>
      createBookExport(core, {
        ...(flags.cast === 'auto' ? { cast: await castForBook(core, input, level, dataDir, signal) } : {}),
        origin: 'cli',
        input,
        out,
        format,
        perChapter,
        speakers: parseSpeakerList(flags.speakers),
        ...(flags.voice ? { voiceId: flags.voice } : {}),
        ...(level ? { chapterLevel: level } : {}),
        ...(flags.chapters !== undefined ? { chapters: flags.chapters } : {}),
        ...(flags.master !== undefined ? { master: flags.master as BookMaster } : {}),
        ...(flags.overlay !== undefined ? { overlay: flags.overlay as OverlayLevel } : {}),
        ...(verify ? { verify } : {}),
      }),
    finish: finishBookExport,
    cancelled: 'Cancelled; no book was written.',
    noun: 'export',
  });
  if (result instanceof CliCancelled) return result.exitCode;
  for (const [index, chapter] of result.chapters.entries()) {
    console.log(
      `Chapter ${index + 1}/${result.chapters.length} "${chapter.title}": done, ${chapter.seconds.toFixed(1)} s`,
    );
  }
  console.log(`Wrote ${path.resolve(out)}: ${result.chapters.length} chapters.`);
  console.log(`${result.synthesized} paragraphs synthesized, ${result.reused} from the cache.`);
  for (const [what, reason] of Object.entries(result.ignoredOptions ?? {}))
    console.log(`Not honoured: ${what}: ${reason}`);
  if (result.wordTimes) console.log(`Word overlays: word times ${wordTimingLabel(result.wordTimes)}.`);
  if (result.acx && format === 'm4b') {
    console.log(
      `ACX takes one MP3 per chapter, not the M4B: the mastered chapters are in ${acxFolderFor(path.resolve(out))}`,
    );
  }
  for (const report of result.acx ?? []) console.log(acxLine(report));
  if (result.verify) printVerify(result.verify);
  return 0;
}
