/**
 * `node dist/cli.js embed-subtitles <video> <subtitles> --out x.mp4 [--language en]`: a copy of the video with
 * the subtitles as a soft track, made as an `embed` job of the job core (src/jobs/kinds/embed.ts), as the
 * editor's command makes it (ffmpeg in an engine process does the work, copying the video and audio as they
 * are); Ctrl+C cancels the job, which leaves no copy.
 */
import path from 'node:path';
import { UsageError } from '../util/usage-error';
import { CliCancelled } from './cancel-signals';
import { runCliJob, type CliJobPlace } from './run-cli-job';

export interface EmbedFlags {
  out?: string;
  language?: string;
  title?: string;
  /** Leave out the video's subtitle tracks of the same language. */
  'replace-language'?: boolean;
}

/** Runs the embedding; answers the exit code (1 when refused or failed, 130 or 143 when cancelled). */
export async function runEmbedCommand(args: readonly string[], flags: EmbedFlags, place: CliJobPlace): Promise<number> {
  const [video, subtitles] = args;
  if (!video || !subtitles) throw new UsageError('Expected "embed-subtitles <video> <subtitles> --out x.mp4".');
  const out = flags.out;
  if (!out) throw new UsageError('embed-subtitles needs --out, the copy to write (e.g. talk.subtitled.mp4).');
  // Loaded here so the other commands do not load the job core.
  const [{ embedKind }, { finishPartialOutputJob }] = await Promise.all([
    import('../jobs/kinds/embed'),
    import('../jobs/wait-for-job'),
  ]);
  let result;
  try {
    result = await runCliJob(place, {
      create: (core) =>
        core.jobs.create(embedKind, {
          origin: 'cli',
          video,
          subtitles,
          out,
          ...(flags.language === undefined ? {} : { language: flags.language }),
          ...(flags.title === undefined ? {} : { title: flags.title }),
          ...(flags['replace-language'] ? { replaceSameLanguage: true } : {}),
        }),
      // The engine writes the copy under a temporary name and renames it when complete: nothing to remove here.
      finish: async (jobs, job, signal) => {
        const ended = await finishPartialOutputJob(jobs, job, () => undefined, signal);
        return { job: ended, result: embedKind.resultOf(ended) };
      },
      cancelled: 'Cancelled; nothing was written.',
      noun: 'embedding',
    });
  } catch (error) {
    // The refusal or the engine's failure, already worded for people (a container it cannot write, an unreadable file).
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
  if (result instanceof CliCancelled) return result.exitCode;
  console.log(
    `Wrote ${out}: ${result.subtitleCues} cues as a ${result.subtitleCodec} track (${result.language})${result.title ? ` titled "${result.title}"` : ''}; the video and audio were copied, not re-encoded.`,
  );
  if (result.keptTracks.length > 0)
    console.log(
      `Kept the video's ${result.keptTracks.length} other subtitle track(s): ${result.keptTracks.map((track) => track.language).join(', ')}.`,
    );
  if (result.replacedTracks.length > 0)
    console.log(
      `Replaced: ${result.replacedTracks.map((track) => `${track.language}${track.title ? ` "${track.title}"` : ''}`).join(', ')}.`,
    );
  if (result.droppedTracks.length > 0)
    console.error(
      `Left out (pictures ${path.extname(out)} cannot hold): ${result.droppedTracks.map((track) => `${track.codec} ${track.language}`).join(', ')}.`,
    );
  return 0;
}
