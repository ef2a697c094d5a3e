/**
 * POST /audio/transcriptions and /audio/translations: OpenAI's multipart request becomes a Local API STT
 * job (same upload receiver, option validator, model choice and queue), with whisper's initial prompt,
 * task and temperature passed as hints. The answer waits for the job (or streams `transcript.text.delta`
 * events as segments are recognized with `stream=true`); a client that goes away cancels the job.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { promises as fs } from 'node:fs';
import { ApiError, invalidRequest } from '../contract/errors';
import path from 'node:path';
import { REFERENCE_SPEAKERS_FILE, type RecognizedSegment, type ReferenceSpeakers } from '../engine/protocol';
import { speakerNameProblem } from '../voices/known-speakers';
import { QueueFullError, type Reservation } from '../jobs/job-service';
import { isActive, type JobRecord } from '../jobs/types';
import { waitForJobEnd } from '../jobs/wait-for-job';
import { admitStt, checkSttFields, findNamedSttModel, installedSttModels, requireSttModel, type SttModels } from '../jobs/admission';
import type { InstalledWhisperModel } from '../models/installed-models';
import type { Transcript } from '../subtitles/types';
import type { AppDeps } from '../http/app-deps';
import { requireFeature } from '../http/security';
import { folderSink } from '../http/upload/folder-sink';
import { FRAMING_ALLOWANCE, MAX_UPLOAD_BYTES, receiveUpload, tooLarge } from '../http/upload/receive-upload';
import { queueFull } from '../http/queue-full';
import { openSse } from '../http/sse';
import type { OpenAiDoor } from './door';
import { IGNORED_HEADER, JOB_ID_HEADER } from './speech';
import { formatTranscript, wordTimesOf } from './transcription-format';
import type { OpenAiTranscriptionBody } from './validation';

/** OpenAI's transcription model names, which mean the default; an installed model's file name or catalog id picks that model. */
const OPENAI_STT_MODELS = /^(whisper-1|gpt-4o(-mini)?-transcribe([\w-]*)?|gpt-transcribe[\w-]*)$/;
const TRANSLATION_FIELDS = new Set(['model', 'prompt', 'response_format', 'temperature']);
const TRANSCRIPTION_FIELDS = new Set([...TRANSLATION_FIELDS, 'language', 'timestamp_granularities[]', 'stream', 'known_speaker_names[]', 'known_speaker_references[]']);
/** Transcriptions may carry up to 4 reference clips as data URLs beside the usual short fields. */
const TRANSCRIPTION_FIELD_LIMITS = { fields: 24, fieldSize: 3_000_000 };

type Task = 'transcribe' | 'translate';

export function transcriptionRoutes(router: Router, deps: AppDeps, door: OpenAiDoor): void {
  router.post('/audio/transcriptions', requireFeature(deps.entitlements, 'stt'), (ctx) => transcribe(ctx, deps, door, 'transcribe'));
  router.post('/audio/translations', requireFeature(deps.entitlements, 'stt'), (ctx) => transcribe(ctx, deps, door, 'translate'));
}

/** Multipart fields as the validator wants them: `name[]` fields (and repeated ones) as arrays. */
function formFields(entries: Array<[string, string]>): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of entries) {
    const existing = fields[name];
    if (name.endsWith('[]')) fields[name] = [...(Array.isArray(existing) ? existing : []), value];
    else fields[name] = value;
  }
  return fields;
}

async function transcribe(ctx: Context, deps: AppDeps, door: OpenAiDoor, task: Task): Promise<void> {
  const maxBytes = deps.maxUploadBytes ?? MAX_UPLOAD_BYTES;
  if (!ctx.is('multipart/form-data')) throw invalidRequest('file: send multipart/form-data with the audio in a part named "file"');
  const declared = Number(ctx.get('Content-Length'));
  if (Number.isFinite(declared) && declared > maxBytes + FRAMING_ALLOWANCE) throw tooLarge(maxBytes);
  const installed = await installedSttModels(deps.dataDir);
  requireSttModel(installed);
  let reservation: Reservation;
  try {
    reservation = deps.jobs.reserve('api');
  } catch (error) {
    if (error instanceof QueueFullError) throw queueFull(error);
    throw error;
  }
  const id = deps.jobs.newJobId();
  let job: JobRecord;
  let body: OpenAiTranscriptionBody;
  let ignored: string[];
  try {
    ({ job, body, ignored } = await receiveAndCreate(ctx, deps, door, task, id, maxBytes, installed, reservation));
  } catch (error) {
    reservation.release();
    await deps.jobs.files.remove(id);
    throw error;
  }
  ctx.set(JOB_ID_HEADER, job.id);
  if (ignored.length > 0) {
    ctx.set(IGNORED_HEADER, ignored.join('; ').slice(0, 500));
    deps.log.info(`POST /audio/${task === 'translate' ? 'translations' : 'transcriptions'} (job ${job.id}): accepted but not honoured: ${ignored.join('; ')}`);
  }

  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (ctx.res.writableFinished) return;
    controller.abort();
    const latest = deps.jobs.get(job.id);
    if (latest && isActive(latest.status)) deps.jobs.cancel(job.id).catch(() => undefined);
  });
  const granularities = body['timestamp_granularities[]'] ?? [];
  const options = { task, words: granularities.includes('word'), segments: granularities.includes('segment') };

  if (body.stream) {
    streamTranscription(ctx, deps, job.id);
    return;
  }
  const ended = await waitForJobEnd(deps.jobs, job.id, controller.signal);
  const transcript = await finishedTranscript(deps, ended);
  if (options.words) ctx.set('X-Speech-Studio-Word-Times', wordTimesOf(transcript));
  const formatted = formatTranscript(transcript, body.response_format, options);
  ctx.type = formatted.mediaType;
  ctx.body = formatted.body;
}

async function receiveAndCreate(
  ctx: Context, deps: AppDeps, door: OpenAiDoor, task: Task, id: string, maxBytes: number,
  installed: SttModels<InstalledWhisperModel>, reservation: Reservation,
): Promise<{ job: JobRecord; body: OpenAiTranscriptionBody; ignored: string[] }> {
  const dir = await deps.jobs.files.create(id);
  const upload = await receiveUpload(ctx.req, folderSink(dir), maxBytes, task === 'transcribe' ? TRANSCRIPTION_FIELD_LIMITS : undefined);
  if (!upload.file) throw invalidRequest('file: is required (a part named "file" holding the audio)');
  if (upload.file.bytes === 0) throw invalidRequest('file: is empty');
  const fields = formFields(upload.entries);
  // Fields OpenAI defines that whisper.cpp has no use for (include[], chunking_strategy, …) are accepted and reported.
  const known = task === 'translate' ? TRANSLATION_FIELDS : TRANSCRIPTION_FIELDS;
  const ignored = Object.keys(fields).filter((name) => !known.has(name));
  for (const name of ignored) delete fields[name];
  const checked = door.validators.transcription(fields);
  if (!checked.ok) throw invalidRequest(checked.message);
  const body = checked.value;

  const named = OPENAI_STT_MODELS.test(body.model) ? undefined : findNamedSttModel(installed.models, body.model);
  if (!named && !OPENAI_STT_MODELS.test(body.model)) {
    throw invalidRequest(`model: ${JSON.stringify(body.model.slice(0, 100))} is not installed; use whisper-1 or a model from GET /models`);
  }
  const whisper = {
    ...(body.prompt ? { prompt: body.prompt } : {}),
    ...(task === 'translate' ? { translate: true } : {}),
    ...(body.temperature > 0 ? { temperature: body.temperature } : {}),
  };
  // The Local API's admission, with OpenAI's fields translated: diarization is not part of OpenAI's request;
  // admission also refuses what a Parakeet model cannot honour (prompt, translate, temperature, language).
  const diarized = body.response_format === 'diarized_json';
  if (diarized && task === 'translate') throw invalidRequest('response_format: diarized_json is for transcriptions, not translations');
  if (diarized) await writeReferenceSpeakers(dir, body);
  else if (body['known_speaker_names[]'] || body['known_speaker_references[]']) ignored.push('known_speaker_names[] and known_speaker_references[] (only diarized_json labels speakers)');
  const ask = checkSttFields(deps.validators, { language: body.language ?? 'auto', diarizationEnabled: diarized ? 'true' : 'false' });
  const { options, model } = admitStt(ask, installed, deps.preferredSttModel?.(), { ...(named ? { named } : {}), hints: whisper });
  const label = task === 'translate' ? 'OpenAI translation' : 'OpenAI transcription';
  const job = await deps.jobs.createSttJob(
    {
      id, origin: 'api', options, inputFile: upload.file.storedName, originalName: upload.file.originalName, bytes: upload.file.bytes,
      modelPath: model.path, name: `${label}: ${upload.file.originalName}`.slice(0, 200), whisper,
    },
    reservation,
  );
  if ((body['timestamp_granularities[]'] ?? []).length > 0 && body.response_format !== 'verbose_json') ignored.push('timestamp_granularities[] (only verbose_json carries times)');
  return { job, body, ignored };
}

/**
 * The known speakers' reference clips, from their data URLs into the job's folder, listed for the engine
 * (REFERENCE_SPEAKERS_FILE), which names a diarized speaker whose voice matches one.
 */
async function writeReferenceSpeakers(dir: string, body: OpenAiTranscriptionBody): Promise<void> {
  const names = body['known_speaker_names[]'] ?? [];
  const references = body['known_speaker_references[]'] ?? [];
  if (names.length !== references.length) {
    throw invalidRequest(`known_speaker_references[]: give one reference clip for each of the ${names.length} known_speaker_names[] (got ${references.length})`);
  }
  if (names.length === 0) return;
  const speakers: ReferenceSpeakers['speakers'] = [];
  for (const [index, name] of names.entries()) {
    const problem = speakerNameProblem(name);
    if (problem) throw invalidRequest(`known_speaker_names[]: ${problem}`);
    if (names.indexOf(name) !== index) throw invalidRequest(`known_speaker_names[]: ${JSON.stringify(name)} is given twice`);
    const file = `reference-speaker-${index}.audio`;
    await fs.writeFile(path.join(dir, file), Buffer.from(references[index].slice(references[index].indexOf(',') + 1), 'base64'));
    speakers.push({ name, file });
  }
  await fs.writeFile(path.join(dir, REFERENCE_SPEAKERS_FILE), JSON.stringify({ speakers } satisfies ReferenceSpeakers));
}

/** The transcript of an ended job, or the error an OpenAI client should see. */
async function finishedTranscript(deps: AppDeps, job: JobRecord): Promise<Transcript> {
  if (job.status !== 'succeeded') {
    // A file ffmpeg cannot read is the client's mistake, not the server's.
    if (job.status === 'failed' && job.phase === 'decoding') throw invalidRequest(`file: ${job.error ?? 'could not be decoded'}`);
    throw new ApiError('INTERNAL_ERROR', `The transcription job ${job.id} ${job.status === 'failed' ? `failed: ${job.error}` : `was ${job.status}`}.`);
  }
  const file = job.outputFile ? deps.jobs.files.file(job.id, job.outputFile) : undefined;
  const text = file ? await fs.readFile(file, 'utf8').catch(() => undefined) : undefined;
  if (text === undefined) throw new ApiError('OUTPUT_NOT_FOUND', 'The transcript of this job is gone from the data directory.');
  return JSON.parse(text) as Transcript;
}

/** `transcript.text.delta` per recognized segment, then `transcript.text.done` with the whole text. */
function streamTranscription(ctx: Context, deps: AppDeps, id: string): void {
  const sse = openSse(ctx);
  let sent = 0;
  const onSegments = (jobId: string, segments: RecognizedSegment[]): void => {
    if (jobId !== id) return;
    for (const segment of segments) {
      sse.send({ data: { type: 'transcript.text.delta', delta: sent === 0 ? segment.text : ` ${segment.text}` } });
      sent++;
    }
  };
  deps.jobs.on('segments', onSegments);
  void (async () => {
    try {
      const ended = await waitForJobEnd(deps.jobs, id, sse.signal);
      const transcript = await finishedTranscript(deps, ended);
      sse.send({ data: { type: 'transcript.text.done', text: transcript.text, usage: { type: 'duration', seconds: Math.ceil(transcript.durationSeconds) } } });
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 500;
      const code = error instanceof ApiError ? error.code : 'INTERNAL_ERROR';
      sse.send({ event: 'error', data: { error: { message: error instanceof Error ? error.message : String(error), type: status < 500 ? 'invalid_request_error' : 'server_error', param: null, code } } });
    } finally {
      deps.jobs.off('segments', onSegments);
      sse.end();
    }
  })();
}
