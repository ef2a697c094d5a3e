import type Router from '@koa/router';
import { isUuid } from '../../../contract/validation';
import { isActive } from '../../../jobs/types';
import { ApiError, invalidRequest } from '../../../contract/errors';
import { requireSucceeded } from '../../../contract/job-rules';
import { outputMediaType } from '../../../contract/media-types';
import { LONG_WORD_CUES_HEADER, subtitleStyleOf } from '../../../contract/subtitle-query';
import { renderTranscript, type Transcript } from '../../../subtitles/render';
import { findJobForKey, toPublicJob, type JobRow } from '../../data/jobs';
import { requireKey, type RelayDeps, type RelayState } from '../deps';
import { nameJobDevice } from '../device-header';
import { requireScope } from '../key-auth';

const notFound = (id: string): ApiError =>
  new ApiError('JOB_NOT_FOUND', `No job with id ${JSON.stringify(id.slice(0, 64))} was created with this key.`);

const outputGone = (): ApiError =>
  new ApiError('OUTPUT_NOT_FOUND', "The files of this job have expired from the relay's storage.");

export function jobRoutes(router: Router<RelayState>, deps: RelayDeps): void {
  const find = async (keyId: string, id: string): Promise<JobRow> => {
    const job = isUuid(id) ? await findJobForKey(deps.db, keyId, id.toLowerCase()) : undefined;
    if (!job) throw notFound(id);
    return job;
  };

  router.get('/jobs/:id', requireScope('jobs.read'), async (ctx) => {
    const job = await find(requireKey(ctx.state).id, ctx.params.id);
    nameJobDevice(ctx, job);
    ctx.body = toPublicJob(job);
  });

  router.post('/jobs/:id/cancel', requireScope('jobs.cancel'), async (ctx) => {
    const job = await find(requireKey(ctx.state).id, ctx.params.id);
    nameJobDevice(ctx, job);
    if (!isActive(job.status)) {
      throw new ApiError(
        'JOB_NOT_ACTIVE',
        `The job has already finished (${job.status}); only queued or running jobs can be cancelled.`,
      );
    }
    const cancelled = await deps.lifecycle.update(job.id, { status: 'cancelled', error: null });
    // Finished between the read and the lock: answer with what it became.
    const latest = cancelled ?? (await find(requireKey(ctx.state).id, job.id));
    if (latest.status !== 'cancelled') {
      throw new ApiError(
        'JOB_NOT_ACTIVE',
        `The job has already finished (${latest.status}); only queued or running jobs can be cancelled.`,
      );
    }
    ctx.body = toPublicJob(latest);
  });

  router.get('/jobs/:id/output', requireScope('jobs.read'), async (ctx) => {
    const job = await find(requireKey(ctx.state).id, ctx.params.id);
    nameJobDevice(ctx, job);
    requireSucceeded(job, 'tts');
    const blob = job.output_blob ? await deps.blobs.get(job.output_blob) : undefined;
    if (!blob) throw outputGone();
    const format = String((job.request.outputFormat as string | undefined) ?? 'wav');
    ctx.type = outputMediaType(format);
    ctx.length = blob.bytes;
    ctx.attachment(`speech-${job.id.slice(0, 8)}.${format}`);
    ctx.body = blob.stream;
  });

  router.get('/jobs/:id/transcript', requireScope('jobs.read'), async (ctx) => {
    const query = deps.validators.transcriptQuery(ctx.query);
    if (!query.ok) throw invalidRequest(query.message);
    const subtitles = subtitleStyleOf(query.value);
    if (!subtitles.ok) throw invalidRequest(subtitles.message);
    const job = await find(requireKey(ctx.state).id, ctx.params.id);
    nameJobDevice(ctx, job);
    requireSucceeded(job, 'stt');
    const blob = job.output_blob ? await deps.blobs.get(job.output_blob) : undefined;
    if (!blob) throw outputGone();
    const chunks: Buffer[] = [];
    for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
    const transcript = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Transcript;
    const rendered = renderTranscript(transcript, query.value.format, subtitles.style);
    if (rendered.longWordCues) ctx.set(LONG_WORD_CUES_HEADER, rendered.longWordCues.join(', '));
    ctx.type = rendered.mediaType;
    ctx.body = rendered.body;
  });
}
