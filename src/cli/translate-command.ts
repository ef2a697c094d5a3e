/**
 * `node dist/cli.js translate in.srt --to de [--out in.de.srt] [--from en] [--model M] [--style S]`: translates
 * a subtitle file with the local language model as a job of the job core (src/jobs/translate-job.ts, as the
 * editor does), printing its progress; Ctrl+C cancels the job, which leaves no partial file.
 */
import path from 'node:path';
import { UsageError } from '../util/usage-error';
import { CliCancelled } from './cancel-signals';
import { runCliJob, type CliJobPlace } from './run-cli-job';
import { styleFlag } from './style-flag';

export interface TranslateFlags {
  out?: string;
  to?: string;
  from?: string;
  model?: string;
  style?: string;
}

/** Runs the translation; answers the exit code (130 or 143 when Ctrl+C or SIGTERM cancelled it). */
export async function runTranslateCommand(
  input: string | undefined,
  flags: TranslateFlags,
  place: CliJobPlace,
): Promise<number> {
  const { dataDir } = place;
  if (!input) throw new UsageError('Expected "translate <file.srt|file.vtt> --to LANG [--out FILE]".');
  if (!flags.to) throw new UsageError('translate needs --to, the language to translate into (e.g. de).');
  const style = styleFlag(flags.style);
  const { createTranslateJob, finishTranslateJob, translatedName } = await import('../jobs/translate-job');
  const out = flags.out ?? translatedName(input, flags.to);
  const to = flags.to;
  const result = await runCliJob(place, {
    create: (core) =>
      createTranslateJob(core.jobs, dataDir, {
        origin: 'cli',
        input,
        out,
        to,
        style,
        ...(flags.from ? { from: flags.from } : {}),
        ...(flags.model ? { model: flags.model } : {}),
      }),
    finish: finishTranslateJob,
    cancelled: 'Cancelled; no translation was written.',
    noun: 'translation',
  });
  if (result instanceof CliCancelled) return result.exitCode;
  console.log(
    `Wrote ${path.resolve(out)}: ${result.cues} cues translated with ${result.model} (${result.tokensPerSecond} tokens/s).`,
  );
  if (result.shortened.length) console.log(`Shortened to fit the reading speed: cues ${result.shortened.join(', ')}.`);
  for (const flagged of result.flagged)
    console.log(`Cue ${flagged.index} reads too fast: ${flagged.charsPerSecond} characters per second.`);
  return 0;
}
