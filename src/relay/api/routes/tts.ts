import type Router from '@koa/router';
import { randomUUID } from 'node:crypto';
import { checkTtsRequest } from '../../../jobs/admission';
import { nameFromText } from '../../../jobs/job-name';
import { jsonBody } from '../../../http/request-body';
import { hasStorageRoom, reserveCredits } from '../../data/accounts';
import { insertJob, toPublicJob } from '../../data/jobs';
import { CHANNELS, notify, type Queryable } from '../../db/database';
import { canRunTts } from '../../../link/capabilities';
import { ttsCostMilli } from '../../dispatch/credits';
import { requireKey, type RelayDeps, type RelayState } from '../deps';
import { insufficientCredits, placeJob, storageQuotaExceeded, takeConcurrencySlot } from '../job-placement';
import { nameJobDevice } from '../device-header';
import { requireScope } from '../key-auth';
import { refuseNul } from '../refuse-nul';

/** The output needs some room: an account at or over its quota takes no new job. */
async function requireStorageRoom(tx: Queryable, accountId: number): Promise<void> {
  if (!(await hasStorageRoom(tx, accountId))) throw storageQuotaExceeded();
}

export function ttsRoutes(router: Router<RelayState>, deps: RelayDeps): void {
  const parseJson = jsonBody();

  router.post('/tts/jobs', requireScope('tts.create'), parseJson, async (ctx) => {
    const key = requireKey(ctx.state);
    // The voice is checked where the job runs: placement only picks a device whose voice is ready.
    // NUL first: the relay cannot store it, whatever else the checks would say of the text.
    refuseNul(ctx.request.body);
    const checked = checkTtsRequest(deps.validators, ctx.request.body);
    const { text, ...request } = checked;
    request.voiceId = request.voiceId.toLowerCase();
    const placement = await placeJob(
      deps,
      key,
      ctx.get('X-Studio-Device'),
      (caps) => canRunTts(caps, request.voiceId),
      `voice ${request.voiceId}`,
      {
        kind: 'tts',
        voiceId: request.voiceId,
        characters: text.length,
      },
    );
    const cost = ttsCostMilli(text.length);
    const job = await deps.db.transaction(async (tx) => {
      await takeConcurrencySlot(tx, key);
      await requireStorageRoom(tx, key.accountId);
      if (!(await reserveCredits(tx, key.accountId, cost))) throw insufficientCredits(cost);
      const row = await insertJob(tx, {
        id: randomUUID(),
        accountId: key.accountId,
        keyId: key.id,
        deviceId: placement.deviceId,
        pinned: placement.pinned,
        accepted: true,
        kind: 'tts',
        name: nameFromText(text),
        request,
        text,
        creditsReservedMilli: cost,
        storageReservedBytes: 0,
      });
      await notify(tx, CHANNELS.dispatch, placement.deviceId);
      return row;
    });
    nameJobDevice(ctx, job);
    ctx.body = toPublicJob(job);
  });
}
