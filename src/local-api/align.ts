import Router from '@koa/router';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { admitAlignment, alignRecognizerModel } from '../jobs/align-admission';
import { toPublicJob } from '../jobs/types';
import { findVadModelIn } from '../models/model-files';
import type { AppDeps } from '../jobs/app-deps';
import { requireFeature } from '../http/security';
import { folderSink } from '../http/upload/folder-sink';
import { MAX_UPLOAD_BYTES, receiveUpload, requireMediaFile, TEXT_FIELDS } from '../http/upload/receive-upload';
import { precheckUpload } from '../http/upload/upload-precheck';
import { MAX_SCRIPT_BYTES } from '../subtitles/script';

/**
 * POST /align/jobs: the media streamed into the job's folder as for STT, the script beside it; admitted by
 * src/jobs/align-admission.ts and queued as an `align` job, which the seed's routes show as an STT job.
 */
export function alignRoutes(router: Router, deps: AppDeps): void {
  const maxBytes = deps.maxUploadBytes ?? MAX_UPLOAD_BYTES;

  router.post('/align/jobs', requireFeature(deps.entitlements, 'stt'), async (ctx) => {
    // The media may be as large as an STT upload, with the script beside it.
    precheckUpload(ctx, maxBytes + MAX_SCRIPT_BYTES);
    const job = await deps.jobs.createAlignJobWith('api', async (_id, dir) => {
      const upload = await receiveUpload(ctx.req, folderSink(dir), maxBytes, TEXT_FIELDS, { script: MAX_SCRIPT_BYTES });
      const file = requireMediaFile(upload.file);
      const admitted = admitAlignment(deps.validators, upload.fields, upload.smallFiles.script);
      const scriptFile = `script.${admitted.scriptFormat}`;
      await fs.writeFile(path.join(dir, scriptFile), admitted.script, 'utf8');
      const vadModelPath = await findVadModelIn(path.join(deps.dataDir, 'models'), deps.engineConfig());
      const recognizerModelPath = await alignRecognizerModel(
        deps.dataDir,
        admitted.options.language,
        deps.preferredSttModel?.(),
      );
      const { storedName, originalName, bytes } = file;
      return {
        options: admitted.options,
        inputFile: storedName,
        originalName,
        bytes,
        scriptFile,
        scriptFormat: admitted.scriptFormat,
        vadModelPath,
        recognizerModelPath,
      };
    });
    ctx.body = toPublicJob(job);
  });
}
