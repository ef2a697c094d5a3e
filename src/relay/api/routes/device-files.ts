import type Router from '@koa/router';
import { isUuid } from '../../../contract/validation';
import { ApiError } from '../../../contract/errors';
import { reserveStorage, storageRoom } from '../../data/accounts';
import { findActiveJobForDevice, storeJobOutput, type JobRow } from '../../data/jobs';
import { BlobTooLargeError, jobBlobKey } from '../../storage/blob-store';
import type { RelayDeps, RelayState } from '../deps';
import { deviceAuth } from '../key-auth';

/** TTS audio or an STT transcript: generous, but bounded so a broken device cannot fill the disk. */
const MAX_OUTPUT_BYTES = 2 * 1024 ** 3;

/**
 * The device's side of the file transfers, streamed both ways: it pulls a job's input and pushes its
 * output. Only the device the job was sent to may do either.
 */
/** Fails the job (its output cannot be kept); returns the quota's error for the device. */
async function overQuota(deps: RelayDeps, job: JobRow): Promise<ApiError> {
  const why = "its output does not fit the account's storage quota; free space or raise the quota, then run it again";
  await deps.lifecycle.update(job.id, { status: 'failed', error: `The job could not be kept: ${why}.` });
  return new ApiError('STORAGE_QUOTA_EXCEEDED', "The job's output does not fit the account's storage quota.");
}

export function deviceFileRoutes(router: Router<RelayState>, deps: RelayDeps): void {
  const assigned = async (deviceId: string, id: string): Promise<JobRow> => {
    const job = isUuid(id) ? await findActiveJobForDevice(deps.db, id.toLowerCase(), deviceId) : undefined;
    if (!job) throw new ApiError('JOB_NOT_FOUND', 'No active job with this id was sent to this device.');
    return job;
  };

  router.get('/device/jobs/:id/input', deviceAuth(deps), async (ctx) => {
    const job = await assigned(ctx.state.device!.id, ctx.params.id);
    const blob = job.input_blob ? await deps.blobs.get(job.input_blob) : undefined;
    if (!blob) throw new ApiError('OUTPUT_NOT_FOUND', "This job has no input in the relay's storage.");
    ctx.type = 'application/octet-stream';
    ctx.length = blob.bytes;
    ctx.body = blob.stream;
  });

  router.put('/device/jobs/:id/output', deviceAuth(deps), async (ctx) => {
    const job = await assigned(ctx.state.device!.id, ctx.params.id);
    const name =
      job.kind === 'tts'
        ? `output.${String((job.request.outputFormat as string | undefined) ?? 'wav').replace(/[^a-z0-9]/g, '')}`
        : 'transcript.json';
    const key = jobBlobKey(job.id, name);
    // The output counts against the account's storage as an upload does: stop it once it cannot fit.
    const room = (await storageRoom(deps.db, job.account_id)) + job.output_bytes;
    const maxBytes = Math.max(0, Math.min(MAX_OUTPUT_BYTES, room));
    let bytes: number;
    try {
      bytes = await deps.blobs.put(key, ctx.req, { maxBytes });
    } catch (error) {
      if (!(error instanceof BlobTooLargeError)) throw error;
      if (maxBytes === MAX_OUTPUT_BYTES)
        throw new ApiError('FILE_TOO_LARGE', `The output is larger than ${MAX_OUTPUT_BYTES} bytes.`);
      throw await overQuota(deps, job);
    }
    const full = new Error('over quota');
    const saved = await deps.db
      .transaction(async (tx) => {
        const replaced = await storeJobOutput(tx, job.id, key, bytes);
        if (replaced === undefined) return 'ended';
        // Thrown, so that the output recorded just above is rolled back with it.
        if (!(await reserveStorage(tx, job.account_id, bytes - replaced))) throw full;
        return 'saved';
      })
      .catch((error: unknown) => {
        if (error === full) return 'full';
        throw error;
      });
    if (saved !== 'saved') {
      await deps.blobs.delete(key);
      if (saved === 'full') throw await overQuota(deps, job);
      throw new ApiError('JOB_NOT_ACTIVE', 'The job ended (cancelled?) before its output arrived.');
    }
    ctx.status = 204;
  });
}
