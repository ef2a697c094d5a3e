/**
 * `node dist/cli.js dub video.mp4 --to de [--subtitles x.srt] [--mix duck|replace] [--out video.de.mp4]`:
 * dubs a video with the local language model and the library's voices as a job of the job core
 * (src/jobs/dub-job.ts, as the editor does), printing its progress and then its report: each speaker's
 * voice and the cues that did not fit. Ctrl+C cancels the job, which leaves no partial file.
 */
import path from 'node:path';
import type { DubMix } from '../engine-api/dub-types';
import { dubReportLines } from '../engine-api/dub-report';
import { UsageError } from '../util/usage-error';
import { CliCancelled } from './cancel-signals';
import { runCliJob, type CliJobPlace } from './run-cli-job';
import { styleFlag } from './style-flag';

export interface DubFlags {
  out?: string;
  to?: string;
  from?: string;
  subtitles?: string;
  mix?: string;
  model?: string;
  style?: string;
  'stt-model'?: string;
}

/** Runs the dub; answers the exit code (130 or 143 when Ctrl+C or SIGTERM cancelled it). */
export async function runDubCommand(input: string | undefined, flags: DubFlags, place: CliJobPlace): Promise<number> {
  const { dataDir } = place;
  if (!input) throw new UsageError('Expected "dub <video> --to LANG [--out FILE]".');
  if (!flags.to) throw new UsageError('dub needs --to, the language to dub into (e.g. de).');
  if (flags.mix !== undefined && flags.mix !== 'duck' && flags.mix !== 'replace')
    throw new UsageError(`--mix is duck or replace, not "${flags.mix}".`);
  const style = styleFlag(flags.style);
  const { createDubJob, finishDubJob, dubbedName } = await import('../jobs/dub-job');
  const out = flags.out ?? dubbedName(input, flags.to);
  const to = flags.to;
  const result = await runCliJob(place, {
    create: (core) =>
      createDubJob(core.jobs, dataDir, core.voices, {
        origin: 'cli',
        input,
        out,
        to,
        style,
        ...(flags.mix ? { mix: flags.mix as DubMix } : {}),
        ...(flags.from ? { from: flags.from } : {}),
        ...(flags.subtitles ? { subtitles: flags.subtitles } : {}),
        ...(flags.model ? { model: flags.model } : {}),
        ...(flags['stt-model'] ? { sttModel: flags['stt-model'] } : {}),
      }),
    finish: finishDubJob,
    cancelled: 'Cancelled; no dub was written.',
    noun: 'dub',
  });
  if (result instanceof CliCancelled) return result.exitCode;
  console.log(
    `Wrote ${path.resolve(out)}: ${result.cues} cues dubbed into ${to} (audio track ${result.audioTrack.language}, ${result.audioTrack.mix}), ${result.durationSeconds} s.`,
  );
  for (const line of dubReportLines(result)) console.log(line);
  return 0;
}
