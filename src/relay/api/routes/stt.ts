import type Router from '@koa/router';
import type { Context } from 'koa';
import { randomUUID } from 'node:crypto';
import { ApiError, invalidRequest } from '../../../contract/errors';
import { receiveUpload, requireMediaFile, type ReceivedFile } from '../../../http/upload/receive-upload';
import { precheckUpload } from '../../../http/upload/upload-precheck';
import { checkSttFields } from '../../../jobs/admission';
import {
  adjustStorage,
  creditBalanceMilli,
  reserveCredits,
  reserveStorage,
  reserveStorageUpTo,
} from '../../data/accounts';
import { acceptUpload, dropUnacceptedJob, insertJob, lockJob, toPublicJob, type JobRow } from '../../data/jobs';
import { CHANNELS, notify } from '../../db/database';
import { canRunStt, hasAnyStt } from '../../../link/capabilities';
import { sttEstimateMilli } from '../../dispatch/credits';
import { sttSeconds } from '../../dispatch/finish-estimate';
import { requireKey, type RelayDeps, type RelayState } from '../deps';
import { insufficientCredits, placeJob, storageQuotaExceeded, takeConcurrencySlot } from '../job-placement';
import { hasNul, NUL_REFUSED } from '../../data/stored-text';
import { nameJobDevice } from '../device-header';
import { requireScope } from '../key-auth';
import { jobBlobSink } from '../../storage/blob-sink';

export function sttRoutes(router: Router<RelayState>, deps: RelayDeps): void {
  router.post('/stt/jobs', requireScope('stt.create'), async (ctx) => {
    const key = requireKey(ctx.state);
    const declared = precheckUpload(ctx, deps.maxUploadBytes);
    const header = ctx.get('X-Studio-Device');
    // Fail fast, before a large upload, when nothing could run any transcription at all.
    await placeJob(deps, key, header, hasAnyStt, 'speech-to-text');

    const id = randomUUID();
    const reserved = await deps.db.transaction(async (tx) => {
      await takeConcurrencySlot(tx, key);
      if ((await creditBalanceMilli(tx, key.accountId)) <= 0) throw insufficientCredits(1000);
      const held = await reserveStorageUpTo(tx, key.accountId, declared ?? 0);
      if (held === undefined) throw storageQuotaExceeded();
      // Not yet accepted: invisible to GET /jobs, but it holds one of the key's concurrent places.
      await insertJob(tx, {
        id,
        accountId: key.accountId,
        keyId: key.id,
        deviceId: null,
        pinned: false,
        accepted: false,
        kind: 'stt',
        name: 'upload',
        request: {},
        creditsReservedMilli: 0,
        storageReservedBytes: held,
      });
      return held;
    });
    const sink = jobBlobSink(deps.blobs, id);
    let file: ReceivedFile | undefined;
    try {
      const upload = await receiveUpload(ctx.req, sink, deps.maxUploadBytes);
      file = upload.file;
      const job = await accept(
        ctx,
        deps,
        id,
        upload.fields,
        file && { ...file, key: sink.keyOf(file.storedName) },
        reserved,
      );
      nameJobDevice(ctx, job);
      ctx.body = toPublicJob(job);
    } catch (error) {
      if (file) await sink.remove(file.storedName).catch(() => undefined);
      await deps.db.transaction(async (tx) => {
        const gone = await dropUnacceptedJob(tx, id);
        if (gone) await adjustStorage(tx, key.accountId, -gone.storage_reserved_bytes);
      });
      throw error;
    }
  });
}

/** The upload is in storage: check it, choose the device, reserve the credits, and let the job go. */
async function accept(
  ctx: Context,
  deps: RelayDeps,
  id: string,
  fields: Record<string, string>,
  received: (ReceivedFile & { key: string }) | undefined,
  reserved: number,
): Promise<JobRow> {
  const key = requireKey(ctx.state);
  const file = requireMediaFile(received);
  if (hasNul(file.originalName)) throw invalidRequest(`file: its file name ${NUL_REFUSED}`);
  const { options, diarizationAsked } = checkSttFields(deps.validators, fields);
  const placement = await placeJob(
    deps,
    key,
    ctx.get('X-Studio-Device'),
    (caps) => canRunStt(caps, options, diarizationAsked),
    `speech-to-text in language ${options.language}${diarizationAsked ? ' with diarization' : ''}`,
    { kind: 'stt', seconds: sttSeconds(file.bytes, options) },
  );
  const cost = sttEstimateMilli(file.bytes, options);
  return deps.db.transaction(async (tx) => {
    const job = await lockJob(tx, id);
    if (!job) throw new ApiError('INTERNAL_ERROR', 'The job vanished while its upload arrived.');
    // Hold what the file really takes: less than the declared body, or all of it when no length was declared.
    if (!(await reserveStorage(tx, key.accountId, file.bytes - reserved))) throw storageQuotaExceeded();
    if (!(await reserveCredits(tx, key.accountId, cost))) throw insufficientCredits(cost); // rolls the storage back too
    const row = await acceptUpload(tx, id, {
      deviceId: placement.deviceId,
      pinned: placement.pinned,
      name: file.originalName,
      request: { options, diarizationAsked },
      inputBlob: file.key,
      inputBytes: file.bytes,
      creditsReservedMilli: cost,
    });
    await notify(tx, CHANNELS.dispatch, placement.deviceId);
    return row;
  });
}
