import Router from '@koa/router';
import { QueueFullError } from '../../jobs/job-service';
import { toPublicJob } from '../../jobs/types';
import { parseSubtitles, SubtitleError } from '../../subtitles/parse';
import type { AppDeps } from '../deps';
import { ApiError, invalidRequest } from '../../contract/errors';
import { jsonBody } from '../../http/request-body';
import { requireFeature } from '../middleware/security';
import { queueFull } from './queue-full';

/**
 * POST /tts/jobs. Everything a request can get wrong is answered here, before the job exists: the schema
 * (422 naming the field), an unknown voice (422), a voice that is not ready (409 VOICE_NOT_READY), and
 * subtitles that cannot be read (422 with the line number). ffmpeg, needed for mp3/aac/flac, is checked
 * when the job runs: a missing ffmpeg fails the job with a sentence saying how to install it.
 */
export function ttsRoutes(router: Router, deps: AppDeps): void {
  const parseJson = jsonBody(2 * 1024 * 1024);

  router.post(
    '/tts/jobs',
    requireFeature(deps.entitlements, 'tts'),
    async (ctx, next) => {
      if (!ctx.is('application/json')) throw invalidRequest('body: must be JSON sent with Content-Type: application/json');
      await next();
    },
    parseJson,
    async (ctx) => {
      const checked = deps.validators.ttsRequest(ctx.request.body);
      if (!checked.ok) throw invalidRequest(checked.message);
      const request = checked.value;
      const entry = deps.voices.get(request.voiceId.toLowerCase());
      if (!entry) throw invalidRequest(`voiceId: no voice ${request.voiceId} in your voice library (see GET /voices)`);
      if (entry.voice.availability !== 'ready') {
        throw new ApiError('VOICE_NOT_READY', `The voice ${entry.voice.name} is ${entry.voice.availability.replace('_', ' ')}.`);
      }
      if (request.inputFormat !== 'txt') {
        try {
          parseSubtitles(request.text, request.inputFormat);
        } catch (error) {
          if (error instanceof SubtitleError) throw invalidRequest(`text: not valid ${request.inputFormat.toUpperCase()}, ${error.message}`);
          throw error;
        }
      }
      let reservation;
      try {
        reservation = deps.jobs.reserve('api');
      } catch (error) {
        if (error instanceof QueueFullError) throw queueFull(error);
        throw error;
      }
      const job = await deps.jobs.createTtsJob({ origin: 'api', request, voice: entry.ref }, reservation);
      ctx.body = toPublicJob(job);
    },
  );
}
