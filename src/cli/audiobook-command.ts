/** `node dist/cli.js audiobook <file.md|folder> --out book.m4b`: progress lines, and Ctrl+C leaves no partial book. */
import path from 'node:path';
import type { AudiobookFormat } from '../audiobook/export-audiobook';
import { parseSpeakerList } from '../audiobook/passages';
import { UsageError } from '../util/usage-error';

export interface AudiobookFlags {
  out?: string;
  voice?: string;
  format?: string;
  'chapter-level'?: string;
  speakers?: string;
  'per-chapter'?: boolean;
}

/** Runs the export; answers the exit code (130 when cancelled). */
export async function runAudiobookCommand(input: string | undefined, flags: AudiobookFlags, dataDir: string): Promise<number> {
  if (!input) throw new UsageError('Expected "audiobook <file.md|folder> --out book.m4b".');
  if (!flags.out) throw new UsageError('audiobook needs --out, the book to write (e.g. book.m4b).');
  const perChapter = flags['per-chapter'] === true;
  const format = (flags.format ?? (perChapter || path.extname(flags.out).toLowerCase() === '.mp3' ? 'mp3' : 'm4b')) as AudiobookFormat;
  if (format !== 'm4b' && format !== 'mp3') throw new UsageError(`--format must be m4b or mp3, not ${flags.format}.`);
  if (perChapter && format !== 'mp3') throw new UsageError('--per-chapter writes MP3 files; leave out --format or use --format mp3.');
  const level = flags['chapter-level'] === undefined ? undefined : Number(flags['chapter-level']);
  if (level !== undefined && !(Number.isInteger(level) && level >= 1 && level <= 6)) throw new UsageError('--chapter-level must be 1 to 6.');

  // Loaded here so `serve` does not load the synthesis code into the server process.
  const { AudiobookCancelled, exportAudiobook } = await import('../audiobook/export-audiobook');
  const controller = new AbortController();
  const cancel = (): void => controller.abort();
  process.once('SIGINT', cancel);
  process.once('SIGTERM', cancel);
  try {
    await exportAudiobook({
      input, out: flags.out, format, dataDir, voiceId: flags.voice, chapterLevel: level, perChapter,
      speakers: parseSpeakerList(flags.speakers),
      onProgress: (line) => console.log(line), signal: controller.signal,
    });
    return 0;
  } catch (error) {
    if (!(error instanceof AudiobookCancelled)) throw error;
    console.error(error.message);
    return 130;
  } finally {
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
  }
}
