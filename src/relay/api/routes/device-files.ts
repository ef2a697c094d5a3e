import type Router from '@koa/router';
import { isUuid } from '../../../contract/validation';
import { ApiError } from '../../../contract/errors';
import { adjustStorage } from '../../data/accounts';
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
    let bytes: number;
    try {
      bytes = await deps.blobs.put(key, ctx.req, { maxBytes: MAX_OUTPUT_BYTES });
    } catch (error) {
      if (error instanceof BlobTooLargeError)
        throw new ApiError('FILE_TOO_LARGE', `The output is larger than ${MAX_OUTPUT_BYTES} bytes.`);
      throw error;
    }
    const saved = await deps.db.transaction(async (tx) => {
      const replaced = await storeJobOutput(tx, job.id, key, bytes);
      if (replaced === undefined) return false;
      await adjustStorage(tx, job.account_id, bytes - replaced);
      return true;
    });
    if (!saved) {
      await deps.blobs.delete(key);
      throw new ApiError('JOB_NOT_ACTIVE', 'The job ended (cancelled?) before its output arrived.');
    }
    ctx.status = 204;
  });
}
