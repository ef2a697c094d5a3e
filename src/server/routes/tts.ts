import Router from '@koa/router';
import { koaBody } from 'koa-body';
import { admitTts } from '../../jobs/admission';
import { QueueFullError } from '../../jobs/job-service';
import { toPublicJob } from '../../jobs/types';
import type { AppDeps } from '../deps';
import { invalidRequest } from '../../contract/errors';
import { requireFeature } from '../middleware/security';
import { queueFull } from './queue-full';

/**
 * POST /tts/jobs. Everything a request can get wrong is answered before the job exists, by admission
 * (src/jobs/admission.ts): the schema, the text, the subtitles and their timeline (422), the voice (422
 * unknown, 409 VOICE_NOT_READY). ffmpeg, needed for mp3/aac/flac, is checked when the job runs: a missing
 * ffmpeg fails the job with a sentence saying how to install it.
 */
export function ttsRoutes(router: Router, deps: AppDeps): void {
  const parseJson = koaBody({ json: true, multipart: false, urlencoded: false, text: false, jsonLimit: '2mb', jsonStrict: true });

  router.post(
    '/tts/jobs',
    requireFeature(deps.entitlements, 'tts'),
    async (ctx, next) => {
      if (!ctx.is('application/json')) throw invalidRequest('body: must be JSON sent with Content-Type: application/json');
      await next();
    },
    parseJson,
    async (ctx) => {
      const admitted = admitTts(deps.validators, ctx.request.body, deps.voices);
      try {
        ctx.body = toPublicJob(await deps.jobs.createTtsJob({ origin: 'api', ...admitted }));
      } catch (error) {
        if (error instanceof QueueFullError) throw queueFull(error);
        throw error;
      }
    },
  );
}
