import Router from '@koa/router';
import { admitStt, checkSttFields, installedSttModels, requireSttModel } from '../jobs/admission';
import { QueueFullError } from '../jobs/job-service';
import { toPublicJob } from '../jobs/types';
import type { AppDeps } from '../http/app-deps';
import { invalidRequest } from '../contract/errors';
import { requireFeature } from '../http/security';
import { folderSink } from '../http/upload/folder-sink';
import { FRAMING_ALLOWANCE, MAX_UPLOAD_BYTES, receiveUpload, tooLarge } from '../http/upload/receive-upload';
import { queueFull } from '../http/queue-full';

/**
 * POST /stt/jobs: a multipart upload streamed into the job's folder, then admitted (src/jobs/admission.ts).
 * What can be refused before the upload is (not multipart, too large, no model at all); the job service
 * holds the queue place and the folder meanwhile, and frees both when anything fails.
 */
export function sttRoutes(router: Router, deps: AppDeps): void {
  const maxBytes = deps.maxUploadBytes ?? MAX_UPLOAD_BYTES;

  router.post('/stt/jobs', requireFeature(deps.entitlements, 'stt'), async (ctx) => {
    if (!ctx.is('multipart/form-data')) throw invalidRequest('body: must be multipart/form-data with the media in a part named "file"');
    const declared = Number(ctx.get('Content-Length'));
    if (Number.isFinite(declared) && declared > maxBytes + FRAMING_ALLOWANCE) throw tooLarge(maxBytes);
    requireSttModel(await installedSttModels(deps.dataDir));

    try {
      const job = await deps.jobs.createSttJobWith('api', async (_id, dir) => {
        const upload = await receiveUpload(ctx.req, folderSink(dir), maxBytes);
        if (!upload.file) throw invalidRequest('file: is required (a part named "file" holding the media)');
        if (upload.file.bytes === 0) throw invalidRequest('file: is empty');
        const ask = checkSttFields(deps.validators, upload.fields);
        const { options, model } = admitStt(ask, await installedSttModels(deps.dataDir), deps.preferredSttModel?.());
        const { storedName, originalName, bytes } = upload.file;
        return { options, inputFile: storedName, originalName, bytes, modelPath: model.path };
      });
      ctx.body = toPublicJob(job);
    } catch (error) {
      if (error instanceof QueueFullError) throw queueFull(error);
      throw error;
    }
  });
}
