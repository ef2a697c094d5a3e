import Router from '@koa/router';
import { koaBody } from 'koa-body';
import { QueueFullError } from '../../jobs/job-service';
import { toPublicJob } from '../../jobs/types';
import type { AppDeps } from '../deps';
import { ApiError, invalidRequest } from '../errors';
import { requireFeature } from '../middleware/security';
import { queueFull } from './queue-full';

/** Output formats the engine can write today; the others answer 422 rather than a wrong file. */
const PRODUCIBLE_FORMATS = new Set(['wav']);

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
      const checked = deps.validators.ttsRequest(ctx.request.body);
      if (!checked.ok) throw invalidRequest(checked.message);
      const request = checked.value;
      if (!PRODUCIBLE_FORMATS.has(request.outputFormat)) {
        throw invalidRequest(`outputFormat: ${request.outputFormat} cannot be produced yet; use wav`);
      }
      if (request.inputFormat !== 'txt') {
        throw invalidRequest(`inputFormat: ${request.inputFormat} narration is not available yet; use txt`);
      }
      const entry = deps.voices.get(request.voiceId.toLowerCase());
      if (!entry) throw invalidRequest(`voiceId: no voice ${request.voiceId} in your voice library (see GET /voices)`);
      if (entry.voice.availability !== 'ready') {
        throw new ApiError('VOICE_NOT_READY', `The voice ${entry.voice.name} is ${entry.voice.availability.replace('_', ' ')}.`);
      }
      let reservation;
      try {
        reservation = deps.jobs.reserve('api');
      } catch (error) {
        if (error instanceof QueueFullError) throw queueFull(error);
        throw error;
      }
      const job = await deps.jobs.createTtsJob(
        {
          origin: 'api',
          request,
          voice: { engine: entry.engine, engineVoiceId: entry.engineVoiceId, languageCode: entry.voice.languageCode },
        },
        reservation,
      );
      ctx.body = toPublicJob(job);
    },
  );
}
