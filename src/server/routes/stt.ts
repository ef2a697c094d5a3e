import Router from '@koa/router';
import type { Context } from 'koa';
import { QueueFullError, type Reservation } from '../../jobs/job-service';
import { toPublicJob } from '../../jobs/types';
import { toWhisperLanguage } from '../../engine/stt/whisper-languages';
import { chooseWhisperModel, diarizationModelsInstalled, listWhisperModels } from '../../models/installed-models';
import type { AppDeps } from '../deps';
import { ApiError, invalidRequest } from '../../contract/errors';
import { requireFeature } from '../middleware/security';
import { folderSink } from '../../http/upload/folder-sink';
import { FRAMING_ALLOWANCE, MAX_UPLOAD_BYTES, receiveUpload, tooLarge } from '../../http/upload/receive-upload';
import { queueFull } from './queue-full';

export function sttRoutes(router: Router, deps: AppDeps): void {
  const maxBytes = deps.maxUploadBytes ?? MAX_UPLOAD_BYTES;

  router.post('/stt/jobs', requireFeature(deps.entitlements, 'stt'), async (ctx) => {
    if (!ctx.is('multipart/form-data')) throw invalidRequest('body: must be multipart/form-data with the media in a part named "file"');
    const declared = Number(ctx.get('Content-Length'));
    if (Number.isFinite(declared) && declared > maxBytes + FRAMING_ALLOWANCE) throw tooLarge(maxBytes);

    const models = await listWhisperModels(deps.dataDir);
    if (models.length === 0) {
      throw new ApiError('MODEL_NOT_INSTALLED', 'No speech-to-text model is installed: add a whisper model (models install, or a ggml file in <data-dir>/models/whisper/).');
    }
    let reservation: Reservation;
    try {
      reservation = deps.jobs.reserve('api');
    } catch (error) {
      if (error instanceof QueueFullError) throw queueFull(error);
      throw error;
    }
    const id = deps.jobs.newJobId();
    try {
      ctx.body = toPublicJob(await receiveAndCreate(ctx, deps, id, maxBytes, models, reservation));
    } catch (error) {
      reservation.release();
      await deps.jobs.files.remove(id);
      throw error;
    }
  });
}

async function receiveAndCreate(
  ctx: Context,
  deps: AppDeps,
  id: string,
  maxBytes: number,
  models: Awaited<ReturnType<typeof listWhisperModels>>,
  reservation: Reservation,
) {
  const dir = await deps.jobs.files.create(id);
  const upload = await receiveUpload(ctx.req, folderSink(dir), maxBytes);
  if (!upload.file) throw invalidRequest('file: is required (a part named "file" holding the media)');
  if (upload.file.bytes === 0) throw invalidRequest('file: is empty');
  const checked = deps.validators.sttOptions(upload.fields);
  if (!checked.ok) throw invalidRequest(checked.message);
  const options = checked.value;
  if (options.language !== 'auto' && toWhisperLanguage(options.language) === null) {
    throw invalidRequest(`language: ${options.language} is not a language whisper transcribes; use auto or a code such as en`);
  }

  const model = chooseWhisperModel(models, options.language, deps.preferredSttModel?.());
  if (!model) {
    throw new ApiError('MODEL_NOT_INSTALLED', `No installed speech-to-text model handles language ${options.language}: the installed ones are English-only.`);
  }
  if (options.diarizationEnabled && !(await diarizationModelsInstalled(deps.dataDir))) {
    if ('diarizationEnabled' in upload.fields) {
      throw new ApiError('MODEL_NOT_INSTALLED', 'Speaker diarization needs the diarization models (pyannote segmentation and speaker embedding), which are not installed.');
    }
    // Diarization is on by default; without its models a plain transcript is what the caller expects.
    options.diarizationEnabled = false;
  }
  return deps.jobs.createSttJob(
    { id, origin: 'api', options, inputFile: upload.file.storedName, originalName: upload.file.originalName, bytes: upload.file.bytes, modelPath: model.path },
    reservation,
  );
}
