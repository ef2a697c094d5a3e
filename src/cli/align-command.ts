/**
 * `node dist/cli.js align <media> <script|subtitles> --out x.srt`: forced alignment as a job of the job core
 * (src/jobs/align-job.ts, in an engine process, as the editor runs it), the transcript written in the format
 * --out names; Ctrl+C cancels the job. A subtitle file re-timed into --out of its own format keeps everything
 * but its times (styles, tags, ids).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../contract/errors';
import type { TranscriptFormat } from '../contract/openapi';
import { checkOutputFile, requireRegularFile } from '../local-files/user-files';
import { findVadModelIn } from '../models/model-files';
import { renderTranscript } from '../subtitles/render';
import { retimedSource } from '../subtitles/retime-to-alignment';
import { subtitleFormatOfPath } from '../subtitles/scan';
import { renderSubtitleFile, subtitleFileFormatOf, type SubtitleFileFormat } from '../subtitles/subtitle-file';
import type { Transcript } from '../subtitles/types';
import { UsageError } from '../util/usage-error';
import { CliCancelled } from './cancel-signals';
import { runCliJob, type CliJobPlace } from './run-cli-job';

export interface AlignFlags {
  out?: string;
  language?: string;
}

type OutFormat = { transcript: Extract<TranscriptFormat, 'txt' | 'json-full'> } | { subtitles: SubtitleFileFormat };

/** What an output file's extension asks for: a subtitle file, plain text, or (`.json`) the full transcript. */
function formatOf(out: string): OutFormat {
  const extension = path.extname(out).slice(1).toLowerCase();
  if (extension === 'json') return { transcript: 'json-full' };
  if (extension === 'txt') return { transcript: 'txt' };
  const subtitles = subtitleFileFormatOf(out);
  if (!subtitles)
    throw new UsageError(
      `--out must end in .srt, .vtt, .ass, .ssa, .ttml, .dfxp, .sbv, .txt or .json, not "${path.basename(out)}".`,
    );
  return { subtitles };
}

/** The output: the script file re-timed when it is a subtitle file of the format asked for, else laid out anew. */
function outputOf(
  transcript: Transcript,
  format: OutFormat,
  scriptFile: string,
  original: string,
  out: string,
  unmatched: readonly { index: number }[],
): string {
  const scriptFormat = subtitleFormatOfPath(scriptFile);
  if ('subtitles' in format && scriptFormat && scriptFormat === subtitleFormatOfPath(out)) {
    return retimedSource(original, scriptFormat, transcript.segments, unmatched);
  }
  return 'subtitles' in format
    ? renderSubtitleFile(transcript, format.subtitles)
    : renderTranscript(transcript, format.transcript).body;
}

/** Aligns as a job of the job core (as the editor does) and writes --out; answers the exit code (130 or 143 when Ctrl+C or SIGTERM cancelled it). Cues not found in the media are listed on stderr. */
export async function runAlignCommand(args: readonly string[], flags: AlignFlags, place: CliJobPlace): Promise<number> {
  const { dataDir } = place;
  const [media, scriptFile] = args;
  if (!media || !scriptFile)
    throw new UsageError('Expected "align <media> <script.txt|.md|.srt|.vtt|.ass|.ttml|.sbv> --out x.srt".');
  if (!flags.out) throw new UsageError('align needs --out, the subtitles to write (e.g. talk.srt).');
  const out = flags.out;
  const format = formatOf(out);
  await requireRegularFile(media, 'media file');
  await requireRegularFile(scriptFile, 'script');
  await checkOutputFile(out, [media, scriptFile], 'alignment');
  const script = await readFile(scriptFile, 'utf8');
  // Loaded here so other commands do not load the job core.
  const { createAlignJob, finishAlignJob } = await import('../jobs/align-job');
  const vadModelPath = await findVadModelIn(path.join(dataDir, 'models'), place.engineConfig);
  let outcome;
  try {
    outcome = await runCliJob(place, {
      create: (core) =>
        createAlignJob(core.jobs, {
          origin: 'cli',
          media: path.resolve(media),
          scriptName: path.basename(scriptFile),
          script,
          vadModelPath,
          ...(flags.language ? { language: flags.language } : {}),
        }),
      finish: finishAlignJob,
      cancelled: 'Cancelled; nothing was written.',
      noun: 'alignment',
    });
  } catch (error) {
    // The admission's refusal (a script it cannot read, a language it does not know) is a usage error here.
    if (error instanceof ApiError && error.code === 'INVALID_REQUEST') throw new UsageError(error.message);
    throw error;
  }
  if (outcome instanceof CliCancelled) return outcome.exitCode;
  const { matchedCues = 0, unmatchedCues = [] } = outcome.result;
  await writeFile(out, outputOf(outcome.transcript, format, scriptFile, script, out, unmatchedCues), 'utf8');
  console.log(
    `Aligned ${matchedCues} of ${matchedCues + unmatchedCues.length} cues to ${path.basename(media)}; wrote ${out}.`,
  );
  for (const cue of unmatchedCues)
    console.error(`Not found in the media: cue ${cue.index}: ${cue.text.replace(/\s+/g, ' ').slice(0, 80)}`);
  return 0;
}
