import type Router from '@koa/router';
import type { Context } from 'koa';
import { randomUUID } from 'node:crypto';
import type { SttOptions } from '../../../contract/types';
import { toWhisperLanguage } from '../../../engine/stt/whisper-languages';
import { ApiError, invalidRequest } from '../../../contract/errors';
import { tooLarge } from '../../../server/multipart-upload';
import { adjustStorage, creditBalanceMilli, reserveCredits, reserveStorage } from '../../data/accounts';
import { acceptUpload, dropUnacceptedJob, insertJob, lockJob, toPublicJob, type JobRow } from '../../data/jobs';
import { CHANNELS, notify } from '../../db/database';
import { canRunStt, hasAnyStt } from '../../../link/capabilities';
import { sttEstimateMilli } from '../../dispatch/credits';
import { requireKey, type RelayDeps, type RelayState } from '../deps';
import { insufficientCredits, placeJob, storageQuotaExceeded, takeConcurrencySlot } from '../job-placement';
import { hasNul, NUL_REFUSED } from '../../data/stored-text';
import { requireScope } from '../key-auth';
import { receiveUploadToStore, type UploadedFile } from '../receive-upload';

/** Multipart framing around the file: a declared length this much over the limit cannot fit. */
const FRAMING_ALLOWANCE = 64 * 1024;

function checkOptions(deps: RelayDeps, fields: Record<string, string>): SttOptions {
  const checked = deps.validators.sttOptions(fields);
  if (!checked.ok) throw invalidRequest(checked.message);
  if (checked.value.language !== 'auto' && toWhisperLanguage(checked.value.language) === null) {
    throw invalidRequest(`language: ${checked.value.language} is not a language whisper transcribes; use auto or a code such as en`);
  }
  return checked.value;
}

export function sttRoutes(router: Router<RelayState>, deps: RelayDeps): void {
  router.post('/stt/jobs', requireScope('stt.create'), async (ctx) => {
    const key = requireKey(ctx.state);
    if (!ctx.is('multipart/form-data')) throw invalidRequest('body: must be multipart/form-data with the media in a part named "file"');
    const declaredText = ctx.get('Content-Length');
    const declared = declaredText === '' ? undefined : Number(declaredText);
    if (declared !== undefined && declared > deps.maxUploadBytes + FRAMING_ALLOWANCE) throw tooLarge();
    const header = ctx.get('X-Studio-Device');
    // Fail fast, before a large upload, when nothing could run any transcription at all.
    await placeJob(deps, key, header, hasAnyStt, 'speech-to-text');

    const id = randomUUID();
    const reserved = declared ?? 0;
    await deps.db.transaction(async (tx) => {
      await takeConcurrencySlot(tx, key);
      if ((await creditBalanceMilli(tx, key.accountId)) <= 0) throw insufficientCredits(1000);
      if (!(await reserveStorage(tx, key.accountId, reserved))) throw storageQuotaExceeded();
      // Not yet accepted: invisible to GET /jobs, but it holds one of the key's concurrent places.
      await insertJob(tx, {
        id, accountId: key.accountId, keyId: key.id, deviceId: null, pinned: false, accepted: false, kind: 'stt',
        name: 'upload', request: {}, creditsReservedMilli: 0, storageReservedBytes: reserved,
      });
    });
    let file: UploadedFile | undefined;
    try {
      const upload = await receiveUploadToStore(ctx.req, deps.blobs, id, deps.maxUploadBytes, tooLarge);
      file = upload.file;
      ctx.body = toPublicJob(await accept(ctx, deps, id, upload.fields, file, reserved));
    } catch (error) {
      if (file) await deps.blobs.delete(file.key).catch(() => undefined);
      await deps.db.transaction(async (tx) => {
        const gone = await dropUnacceptedJob(tx, id);
        if (gone) await adjustStorage(tx, key.accountId, -gone.storage_reserved_bytes);
      });
      throw error;
    }
  });
}

/** The upload is in storage: check it, choose the device, reserve the credits, and let the job go. */
async function accept(ctx: Context, deps: RelayDeps, id: string, fields: Record<string, string>, file: UploadedFile | undefined, reserved: number): Promise<JobRow> {
  const key = requireKey(ctx.state as RelayState);
  if (!file) throw invalidRequest('file: is required (a part named "file" holding the media)');
  if (file.bytes === 0) throw invalidRequest('file: is empty');
  if (hasNul(file.originalName)) throw invalidRequest(`file: its file name ${NUL_REFUSED}`);
  const options = checkOptions(deps, fields);
  const diarizationAsked = 'diarizationEnabled' in fields && options.diarizationEnabled;
  const placement = await placeJob(deps, key, ctx.get('X-Studio-Device'), (caps) => canRunStt(caps, options, diarizationAsked),
    `speech-to-text in language ${options.language}${diarizationAsked ? ' with diarization' : ''}`);
  const cost = sttEstimateMilli(file.bytes, options);
  return deps.db.transaction(async (tx) => {
    const job = await lockJob(tx, id);
    if (!job) throw new ApiError('INTERNAL_ERROR', 'The job vanished while its upload arrived.');
    // Hold what the file really takes: less than the declared body, or all of it when no length was declared.
    if (!(await reserveStorage(tx, key.accountId, file.bytes - reserved))) throw storageQuotaExceeded();
    if (!(await reserveCredits(tx, key.accountId, cost))) throw insufficientCredits(cost); // rolls the storage back too
    const row = await acceptUpload(tx, id, {
      deviceId: placement.deviceId, pinned: placement.pinned, name: file.originalName, request: { options, diarizationAsked },
      inputBlob: file.key, inputBytes: file.bytes, creditsReservedMilli: cost,
    });
    await notify(tx, CHANNELS.dispatch, placement.deviceId);
    return row;
  });
}
