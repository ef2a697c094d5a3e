import Router from '@koa/router';
import { admitStt, checkSttFields, installedSttModels, requireSttModel } from '../jobs/admission';
import { toPublicJob } from '../jobs/types';
import type { AppDeps } from '../jobs/app-deps';
import { requireFeature } from '../http/security';
import { folderSink } from '../http/upload/folder-sink';
import { MAX_UPLOAD_BYTES, receiveUpload, requireMediaFile } from '../http/upload/receive-upload';
import { precheckUpload } from '../http/upload/upload-precheck';

/**
 * POST /stt/jobs: a multipart upload streamed into the job's folder, then admitted (src/jobs/admission.ts).
 * What can be refused before the upload is (not multipart, too large, no model at all); the job service
 * holds the queue place and the folder meanwhile, and frees both when anything fails.
 */
export function sttRoutes(router: Router, deps: AppDeps): void {
  const maxBytes = deps.maxUploadBytes ?? MAX_UPLOAD_BYTES;

  router.post('/stt/jobs', requireFeature(deps.entitlements, 'stt'), async (ctx) => {
    precheckUpload(ctx, maxBytes);
    requireSttModel(await installedSttModels(deps.dataDir));

    const job = await deps.jobs.createSttJobWith('api', async (_id, dir) => {
      const upload = await receiveUpload(ctx.req, folderSink(dir), maxBytes);
      const ask = checkSttFields(deps.validators, upload.fields);
      const { options, model } = admitStt(ask, await installedSttModels(deps.dataDir), deps.preferredSttModel?.());
      const { storedName, originalName, bytes } = requireMediaFile(upload.file);
      return { options, inputFile: storedName, originalName, bytes, modelPath: model.path };
    });
    ctx.body = toPublicJob(job);
  });
}
