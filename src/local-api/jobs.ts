import Router from '@koa/router';
import { createReadStream, promises as fs } from 'node:fs';
import { JobNotActiveError } from '../jobs/job-service';
import { toPublicJob } from '../jobs/types';
import type { AppDeps } from '../http/app-deps';
import { ApiError, invalidRequest } from '../contract/errors';
import { requireSucceeded } from '../contract/job-rules';
import { AUDIO_MEDIA_TYPES, EXTRA_AUDIO_MEDIA_TYPES } from '../contract/media-types';
import { subtitleStyleOf } from '../contract/subtitle-query';
import { findApiJob } from '../jobs/job-lookup';
import { sendTranscript } from './transcript';

export function jobRoutes(router: Router, deps: AppDeps): void {
  router.get('/jobs/:id', (ctx) => {
    ctx.body = toPublicJob(findApiJob(deps.jobs, ctx.params.id));
  });

  router.post('/jobs/:id/cancel', async (ctx) => {
    const job = findApiJob(deps.jobs, ctx.params.id);
    try {
      ctx.body = toPublicJob(await deps.jobs.cancel(job.id));
    } catch (error) {
      if (error instanceof JobNotActiveError) throw new ApiError('JOB_NOT_ACTIVE', error.message);
      throw error;
    }
  });

  router.get('/jobs/:id/output', async (ctx) => {
    const job = findApiJob(deps.jobs, ctx.params.id);
    requireSucceeded(job, 'tts');
    const file = job.outputFile ? deps.jobs.files.file(job.id, job.outputFile) : undefined;
    const stat = file ? await fs.stat(file).catch(() => undefined) : undefined;
    if (!file || !stat?.isFile() || job.input.kind !== 'tts') {
      throw new ApiError('OUTPUT_NOT_FOUND', 'The output file of this job is gone from the data directory.');
    }
    // A job of the OpenAI door may hold opus or pcm, which the engine encoded in place of its wav.
    const format = job.input.encodeAs ?? job.input.options.outputFormat;
    ctx.type = job.input.encodeAs ? EXTRA_AUDIO_MEDIA_TYPES[job.input.encodeAs] : AUDIO_MEDIA_TYPES[job.input.options.outputFormat];
    ctx.length = stat.size;
    ctx.attachment(`speech-${job.id.slice(0, 8)}.${format}`);
    ctx.body = createReadStream(file);
  });

  router.get('/jobs/:id/transcript', async (ctx) => {
    const query = deps.validators.transcriptQuery(ctx.query);
    if (!query.ok) throw invalidRequest(query.message);
    const subtitles = subtitleStyleOf(query.value);
    if (!subtitles.ok) throw invalidRequest(subtitles.message);
    const job = findApiJob(deps.jobs, ctx.params.id);
    requireSucceeded(job, 'stt');
    await sendTranscript(ctx, deps, job, query.value.format, subtitles.style);
  });
}
