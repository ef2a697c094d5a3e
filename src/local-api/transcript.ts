import type { Context } from 'koa';
import type { TranscriptFormat } from '../contract/openapi';
import type { JobRecord } from '../jobs/types';
import type { SubtitleStyle } from '../contract/subtitle-style';
import { renderTranscript } from '../subtitles/render';
import type { AppDeps } from '../jobs/app-deps';
import { readJobTranscript } from '../jobs/job-transcript';
import { LONG_WORD_CUES_HEADER } from '../contract/subtitle-query';

/** Renders the job's stored transcript; SRT and WebVTT cues are laid out anew from its words with `style`. */
export async function sendTranscript(
  ctx: Context,
  deps: AppDeps,
  job: JobRecord,
  format: TranscriptFormat,
  style?: SubtitleStyle,
): Promise<void> {
  const rendered = renderTranscript(await readJobTranscript(deps.jobs.files, job), format, style);
  if (rendered.longWordCues) ctx.set(LONG_WORD_CUES_HEADER, rendered.longWordCues.join(', '));
  ctx.type = rendered.mediaType;
  ctx.body = rendered.body;
}
