/**
 * `node dist/cli.js translate in.srt --to de [--out in.de.srt] [--from en] [--model M] [--style S]`: translates
 * a subtitle file with the local language model as a job of the job core (src/jobs/translate-job.ts, as the
 * editor does), printing its progress; Ctrl+C cancels the job, which leaves no partial file.
 */
import path from 'node:path';
import { resolveStyle, StyleError } from '../contract/subtitle-style';
import { consoleLogger } from '../util/log';
import { UsageError } from '../util/usage-error';

export interface TranslateFlags {
  out?: string;
  to?: string;
  from?: string;
  model?: string;
  style?: string;
}

/** A progress line at most every this many percent. */
const PROGRESS_STEP = 10;

/** Runs the translation; answers the exit code (130 when cancelled). */
export async function runTranslateCommand(input: string | undefined, flags: TranslateFlags, dataDir: string): Promise<number> {
  if (!input) throw new UsageError('Expected "translate <file.srt|file.vtt> --to LANG [--out FILE]".');
  if (!flags.to) throw new UsageError('translate needs --to, the language to translate into (e.g. de).');
  let style;
  try {
    style = resolveStyle(flags.style ?? 'default');
  } catch (error) {
    if (error instanceof StyleError) throw new UsageError(`--style: ${error.message}`);
    throw error;
  }
  // Loaded here so the other commands do not load the job core.
  const { openCliJobCore } = await import('../host/cli-job-core');
  const { createTranslateJob, finishTranslateJob, translatedName } = await import('../jobs/translate-job');
  const out = flags.out ?? translatedName(input, flags.to);
  const log = { ...consoleLogger, info: (message: string) => console.error(message) };
  const core = await openCliJobCore({ dataDir, log });
  const controller = new AbortController();
  const cancel = (): void => controller.abort();
  process.once('SIGINT', cancel);
  process.once('SIGTERM', cancel);
  try {
    const job = await createTranslateJob(core.jobs, dataDir, {
      origin: 'cli', input, out, to: flags.to, style, ...(flags.from ? { from: flags.from } : {}), ...(flags.model ? { model: flags.model } : {}),
    });
    let shown = -PROGRESS_STEP;
    core.jobs.on('change', (changed) => {
      if (changed.id !== job.id || changed.progress < shown + PROGRESS_STEP || changed.progress >= 100) return;
      shown = Math.floor(changed.progress);
      console.log(`${job.name}: ${shown}%${changed.phase ? ` (${changed.phase})` : ''}`);
    });
    const { job: ended, result } = await finishTranslateJob(core.jobs, job, controller.signal);
    await core.jobs.delete(job.id);
    if (ended.status === 'cancelled') {
      console.error('Cancelled; no translation was written.');
      return 130;
    }
    if (!result) throw new Error(ended.error ?? `The translation ended ${ended.status}.`);
    console.log(`Wrote ${path.resolve(out)}: ${result.cues} cues translated with ${result.model} (${result.tokensPerSecond} tokens/s).`);
    if (result.shortened.length) console.log(`Shortened to fit the reading speed: cues ${result.shortened.join(', ')}.`);
    for (const flagged of result.flagged) console.log(`Cue ${flagged.index} reads too fast: ${flagged.charsPerSecond} characters per second.`);
    return 0;
  } finally {
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
    await core.close();
  }
}
