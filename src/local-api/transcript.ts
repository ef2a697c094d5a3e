import type { Context } from 'koa';
import { promises as fs } from 'node:fs';
import type { TranscriptFormat } from '../contract/openapi';
import type { JobRecord } from '../jobs/types';
import type { SubtitleStyle } from '../contract/subtitle-style';
import { renderTranscript } from '../subtitles/render';
import type { Transcript } from '../subtitles/types';
import type { AppDeps } from '../http/app-deps';
import { ApiError } from '../contract/errors';
import { LONG_WORD_CUES_HEADER } from '../contract/subtitle-query';

/** Renders the job's stored transcript; SRT and WebVTT cues are laid out anew from its words with `style`. */
export async function sendTranscript(
  ctx: Context,
  deps: AppDeps,
  job: JobRecord,
  format: TranscriptFormat,
  style?: SubtitleStyle,
): Promise<void> {
  const file = job.outputFile ? deps.jobs.files.file(job.id, job.outputFile) : undefined;
  const text = file ? await fs.readFile(file, 'utf8').catch(() => undefined) : undefined;
  if (text === undefined) throw new ApiError('OUTPUT_NOT_FOUND', 'The transcript of this job is gone from the data directory.');
  const rendered = renderTranscript(JSON.parse(text) as Transcript, format, style);
  if (rendered.longWordCues) ctx.set(LONG_WORD_CUES_HEADER, rendered.longWordCues.join(', '));
  ctx.type = rendered.mediaType;
  ctx.body = rendered.body;
}
