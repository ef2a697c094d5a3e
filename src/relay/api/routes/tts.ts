import type Router from '@koa/router';
import { koaBody } from 'koa-body';
import { randomUUID } from 'node:crypto';
import { invalidRequest } from '../../../contract/errors';
import { hasStorageRoom, reserveCredits } from '../../data/accounts';
import { insertJob, toPublicJob } from '../../data/jobs';
import { CHANNELS, notify, type Queryable } from '../../db/database';
import { canRunTts } from '../../../link/capabilities';
import { ttsCostMilli } from '../../dispatch/credits';
import { requireKey, type RelayDeps, type RelayState } from '../deps';
import { insufficientCredits, placeJob, storageQuotaExceeded, takeConcurrencySlot } from '../job-placement';
import { requireScope } from '../key-auth';
import { refuseNul } from '../refuse-nul';

function nameFromText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'Speech';
}

/** The output needs some room: an account at or over its quota takes no new job. */
async function requireStorageRoom(tx: Queryable, accountId: number): Promise<void> {
  if (!(await hasStorageRoom(tx, accountId))) throw storageQuotaExceeded();
}

export function ttsRoutes(router: Router<RelayState>, deps: RelayDeps): void {
  const parseJson = koaBody({ json: true, multipart: false, urlencoded: false, text: false, jsonLimit: '2mb', jsonStrict: true });

  router.post(
    '/tts/jobs',
    requireScope('tts.create'),
    async (ctx, next) => {
      if (!ctx.is('application/json')) throw invalidRequest('body: must be JSON sent with Content-Type: application/json');
      await next();
    },
    parseJson,
    async (ctx) => {
      const key = requireKey(ctx.state);
      const checked = deps.validators.ttsRequest(ctx.request.body);
      if (!checked.ok) throw invalidRequest(checked.message);
      refuseNul(checked.value);
      const { text, ...request } = checked.value;
      request.voiceId = request.voiceId.toLowerCase();
      const placement = await placeJob(deps, key, ctx.get('X-Studio-Device'), (caps) => canRunTts(caps, request.voiceId), `voice ${request.voiceId}`);
      const cost = ttsCostMilli(text.length);
      const job = await deps.db.transaction(async (tx) => {
        await takeConcurrencySlot(tx, key);
        await requireStorageRoom(tx, key.accountId);
        if (!(await reserveCredits(tx, key.accountId, cost))) throw insufficientCredits(cost);
        const row = await insertJob(tx, {
          id: randomUUID(), accountId: key.accountId, keyId: key.id, deviceId: placement.deviceId, pinned: placement.pinned,
          accepted: true, kind: 'tts', name: nameFromText(text), request, text, creditsReservedMilli: cost, storageReservedBytes: 0,
        });
        await notify(tx, CHANNELS.dispatch, placement.deviceId);
        return row;
      });
      ctx.body = toPublicJob(job);
    },
  );
}
