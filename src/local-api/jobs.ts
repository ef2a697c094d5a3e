import Router from '@koa/router';
import { createReadStream, promises as fs } from 'node:fs';
import { toPublicJob } from '../jobs/types';
import type { AppDeps } from '../jobs/app-deps';
import { ApiError, invalidRequest } from '../contract/errors';
import { requireSucceeded } from '../contract/job-rules';
import { AUDIO_MEDIA_TYPES, EXTRA_AUDIO_MEDIA_TYPES } from '../contract/media-types';
import { subtitleStyleOf } from '../contract/subtitle-query';
import { findApiJob } from '../jobs/job-lookup';
import { byteRange } from '../http/byte-range';
import { sendTranscript } from './transcript';

export function jobRoutes(router: Router, deps: AppDeps): void {
  router.get('/jobs/:id', (ctx) => {
    ctx.body = toPublicJob(findApiJob(deps.jobs, ctx.params.id));
  });

  router.post('/jobs/:id/cancel', async (ctx) => {
    const job = findApiJob(deps.jobs, ctx.params.id);
    ctx.body = toPublicJob(await deps.jobs.cancel(job.id));
  });

  router.get('/jobs/:id/output', async (ctx) => {
    const job = findApiJob(deps.jobs, ctx.params.id);
    requireSucceeded(toPublicJob(job), 'tts');
    const file = job.outputFile ? deps.jobs.files.file(job.id, job.outputFile) : undefined;
    // lstat: an output swapped for a link is not served (it would hand out whatever the link points at).
    const stat = file ? await fs.lstat(file).catch(() => undefined) : undefined;
    if (!file || !stat?.isFile() || job.input.kind !== 'tts') {
      throw new ApiError('OUTPUT_NOT_FOUND', 'The output file of this job is gone from the data directory.');
    }
    // A job of the OpenAI door may hold opus or pcm, which the engine encoded in place of its wav.
    const format = job.input.encodeAs ?? job.input.options.outputFormat;
    const range = byteRange(ctx.get('Range') || undefined, stat.size, ctx.get('If-Range') || undefined);
    ctx.set('Accept-Ranges', 'bytes');
    if (range.kind === 'unsatisfiable') {
      throw new ApiError(
        'RANGE_NOT_SATISFIABLE',
        `Range: ${ctx.get('Range').slice(0, 100)} starts past the end of the ${stat.size}-byte output.`,
        { headers: { 'Content-Range': `bytes */${stat.size}` } },
      );
    }
    ctx.type = job.input.encodeAs
      ? EXTRA_AUDIO_MEDIA_TYPES[job.input.encodeAs]
      : AUDIO_MEDIA_TYPES[job.input.options.outputFormat];
    ctx.attachment(`speech-${job.id.slice(0, 8)}.${format}`);
    if (range.kind === 'part') {
      ctx.status = 206;
      ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${stat.size}`);
      ctx.length = range.end - range.start + 1;
      ctx.body = createReadStream(file, { start: range.start, end: range.end });
      return;
    }
    ctx.length = stat.size;
    ctx.body = createReadStream(file);
  });

  router.get('/jobs/:id/transcript', async (ctx) => {
    const query = deps.validators.transcriptQuery(ctx.query);
    if (!query.ok) throw invalidRequest(query.message);
    const subtitles = subtitleStyleOf(query.value);
    if (!subtitles.ok) throw invalidRequest(subtitles.message);
    const job = findApiJob(deps.jobs, ctx.params.id);
    // Judged by the kind the client sees: an alignment is the seed's STT job.
    requireSucceeded(toPublicJob(job), 'stt');
    await sendTranscript(ctx, deps, job, query.value.format, subtitles.style);
  });
}
