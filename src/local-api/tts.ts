import Router from '@koa/router';
import { admitTts } from '../jobs/admission';
import { toPublicJob } from '../jobs/types';
import type { AppDeps } from '../jobs/app-deps';
import { jsonBody } from '../http/request-body';
import { requireFeature } from '../http/security';

/**
 * POST /tts/jobs. Everything a request can get wrong is answered before the job exists, by admission
 * (src/jobs/admission.ts): the schema, the text, the subtitles and their timeline (422), the voice (422
 * unknown, 409 VOICE_NOT_READY). ffmpeg, needed for mp3/aac/flac, is checked when the job runs: a missing
 * ffmpeg fails the job with a sentence saying how to install it.
 */
export function ttsRoutes(router: Router, deps: AppDeps): void {
  const parseJson = jsonBody();

  router.post('/tts/jobs', requireFeature(deps.entitlements, 'tts'), parseJson, async (ctx) => {
    const admitted = admitTts(deps.validators, ctx.request.body, deps.voices);
    ctx.body = toPublicJob(await deps.jobs.createTtsJob({ origin: 'api', ...admitted }));
  });
}
