/**
 * POST /audio/transcriptions and /audio/translations: OpenAI's multipart request becomes a Local API STT
 * job (same upload receiver, option validator, model choice and queue), with whisper's initial prompt,
 * task and temperature passed as hints. The answer waits for the job (or streams `transcript.text.delta`
 * events as segments are recognized with `stream=true`); a client that goes away cancels the job.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { promises as fs } from 'node:fs';
import { invalidRequest } from '../contract/errors';
import { readJobTranscript } from '../jobs/job-transcript';
import path from 'node:path';
import { REFERENCE_SPEAKERS_FILE, type RecognizedSegment, type ReferenceSpeakers } from '../engine-api/protocol';
import { speakerNameProblem } from '../voices/known-speakers';
import type { ReceivedSttJob } from '../jobs/job-service';
import { succeededJob } from '../jobs/job-outcome';
import type { JobRecord } from '../jobs/types';
import { waitForJobEnd } from '../jobs/wait-for-job';
import {
  admitStt,
  checkSttFields,
  findNamedSttModel,
  installedSttModels,
  requireSttModel,
  type SttModels,
} from '../jobs/admission';
import type { InstalledWhisperModel } from '../models/installed-models';
import type { Transcript } from '../subtitles/types';
import type { AppDeps } from '../jobs/app-deps';
import { requireFeature } from '../http/security';
import { folderSink } from '../http/upload/folder-sink';
import { MAX_UPLOAD_BYTES, receiveUpload, requireMediaFile } from '../http/upload/receive-upload';
import { precheckUpload } from '../http/upload/upload-precheck';
import { cancelJobWhenClientLeaves } from '../http/client-gone';
import { openSse } from '../http/sse';
import type { OpenAiDoor } from './door';
import { openAiErrorOf } from './errors';
import { IGNORED_HEADER, JOB_ID_HEADER } from './speech';
import { formatTranscript, wordTimesOf } from './transcription-format';
import type { OpenAiTranscriptionBody } from './validation';

/** OpenAI's transcription model names, which mean the default; an installed model's file name or catalog id picks that model. */
const OPENAI_STT_MODELS = /^(whisper-1|gpt-4o(-mini)?-transcribe([\w-]*)?|gpt-transcribe[\w-]*)$/;
const TRANSLATION_FIELDS = new Set(['model', 'prompt', 'response_format', 'temperature']);
const TRANSCRIPTION_FIELDS = new Set([
  ...TRANSLATION_FIELDS,
  'language',
  'timestamp_granularities[]',
  'stream',
  'known_speaker_names[]',
  'known_speaker_references[]',
]);
/** Transcriptions may carry up to 4 reference clips as data URLs beside the usual short fields. */
const TRANSCRIPTION_FIELD_LIMITS = { fields: 24, fieldSize: 3_000_000 };

type Task = 'transcribe' | 'translate';

export function transcriptionRoutes(router: Router, deps: AppDeps, door: OpenAiDoor): void {
  router.post('/audio/transcriptions', requireFeature(deps.entitlements, 'stt'), (ctx) =>
    transcribe(ctx, deps, door, 'transcribe'),
  );
  router.post('/audio/translations', requireFeature(deps.entitlements, 'stt'), (ctx) =>
    transcribe(ctx, deps, door, 'translate'),
  );
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
  precheckUpload(ctx, maxBytes);
  const installed = await installedSttModels(deps.dataDir);
  requireSttModel(installed);
  let request: { body: OpenAiTranscriptionBody; ignored: string[] } | undefined;
  const job = await deps.jobs.createSttJobWith('api', async (_id, dir) => {
    const received = await receiveRequest(ctx, deps, door, task, dir, maxBytes, installed);
    request = received;
    return received.job;
  });
  const { body, ignored } = request!;
  ctx.set(JOB_ID_HEADER, job.id);
  if (ignored.length > 0) {
    ctx.set(IGNORED_HEADER, ignored.join('; ').slice(0, 500));
    deps.log.info(
      `POST /audio/${task === 'translate' ? 'translations' : 'transcriptions'} (job ${job.id}): accepted but not honoured: ${ignored.join('; ')}`,
    );
  }

  const gone = cancelJobWhenClientLeaves(ctx, deps.jobs, job.id);
  const granularities = body['timestamp_granularities[]'] ?? [];
  const options = { task, words: granularities.includes('word'), segments: granularities.includes('segment') };

  if (body.stream) {
    streamTranscription(ctx, deps, job.id);
    return;
  }
  const ended = await waitForJobEnd(deps.jobs, job.id, gone);
  const transcript = await finishedTranscript(deps, ended);
  if (options.words) ctx.set('X-Speech-Studio-Word-Times', wordTimesOf(transcript));
  const formatted = formatTranscript(transcript, body.response_format, options);
  ctx.type = formatted.mediaType;
  ctx.body = formatted.body;
}

/** Receives the upload into the job's folder and admits OpenAI's fields as the Local API's request. */
async function receiveRequest(
  ctx: Context,
  deps: AppDeps,
  door: OpenAiDoor,
  task: Task,
  dir: string,
  maxBytes: number,
  installed: SttModels<InstalledWhisperModel>,
): Promise<{ job: ReceivedSttJob; body: OpenAiTranscriptionBody; ignored: string[] }> {
  const upload = await receiveUpload(
    ctx.req,
    folderSink(dir),
    maxBytes,
    task === 'transcribe' ? TRANSCRIPTION_FIELD_LIMITS : undefined,
  );
  const file = requireMediaFile(upload.file);
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
    throw invalidRequest(
      `model: ${JSON.stringify(body.model.slice(0, 100))} is not installed; use whisper-1 or a model from GET /models`,
    );
  }
  const whisper = {
    ...(body.prompt ? { prompt: body.prompt } : {}),
    ...(task === 'translate' ? { translate: true } : {}),
    ...(body.temperature > 0 ? { temperature: body.temperature } : {}),
  };
  // The Local API's admission, with OpenAI's fields translated: diarization is not part of OpenAI's request;
  // admission also refuses what a Parakeet model cannot honour (prompt, translate, temperature, language).
  const diarized = body.response_format === 'diarized_json';
  if (diarized && task === 'translate')
    throw invalidRequest('response_format: diarized_json is for transcriptions, not translations');
  if (diarized) await writeReferenceSpeakers(dir, body);
  else if (body['known_speaker_names[]'] || body['known_speaker_references[]'])
    ignored.push('known_speaker_names[] and known_speaker_references[] (only diarized_json labels speakers)');
  const ask = checkSttFields(deps.validators, {
    language: body.language ?? 'auto',
    diarizationEnabled: diarized ? 'true' : 'false',
  });
  const { options, model } = admitStt(ask, installed, deps.preferredSttModel?.(), {
    ...(named ? { named } : {}),
    hints: whisper,
  });
  const label = task === 'translate' ? 'OpenAI translation' : 'OpenAI transcription';
  if ((body['timestamp_granularities[]'] ?? []).length > 0 && body.response_format !== 'verbose_json')
    ignored.push('timestamp_granularities[] (only verbose_json carries times)');
  const { storedName, originalName, bytes } = file;
  return {
    job: {
      options,
      inputFile: storedName,
      originalName,
      bytes,
      modelPath: model.path,
      name: `${label}: ${originalName}`.slice(0, 200),
      whisper,
    },
    body,
    ignored,
  };
}

/**
 * The known speakers' reference clips, from their data URLs into the job's folder, listed for the engine
 * (REFERENCE_SPEAKERS_FILE), which names a diarized speaker whose voice matches one.
 */
async function writeReferenceSpeakers(dir: string, body: OpenAiTranscriptionBody): Promise<void> {
  const names = body['known_speaker_names[]'] ?? [];
  const references = body['known_speaker_references[]'] ?? [];
  if (names.length !== references.length) {
    throw invalidRequest(
      `known_speaker_references[]: give one reference clip for each of the ${names.length} known_speaker_names[] (got ${references.length})`,
    );
  }
  if (names.length === 0) return;
  const speakers: ReferenceSpeakers['speakers'] = [];
  for (const [index, name] of names.entries()) {
    const problem = speakerNameProblem(name);
    if (problem) throw invalidRequest(`known_speaker_names[]: ${problem}`);
    if (names.indexOf(name) !== index)
      throw invalidRequest(`known_speaker_names[]: ${JSON.stringify(name)} is given twice`);
    const file = `reference-speaker-${index}.audio`;
    await fs.writeFile(
      path.join(dir, file),
      Buffer.from(references[index].slice(references[index].indexOf(',') + 1), 'base64'),
    );
    speakers.push({ name, file });
  }
  await fs.writeFile(path.join(dir, REFERENCE_SPEAKERS_FILE), JSON.stringify({ speakers } satisfies ReferenceSpeakers));
}

/** The transcript of an ended job, or the error an OpenAI client should see. */
async function finishedTranscript(deps: AppDeps, ended: JobRecord): Promise<Transcript> {
  return readJobTranscript(deps.jobs.files, succeededJob(ended));
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
      sse.send({
        data: {
          type: 'transcript.text.done',
          text: transcript.text,
          usage: { type: 'duration', seconds: Math.ceil(transcript.durationSeconds) },
        },
      });
    } catch (error) {
      sse.send({ event: 'error', data: openAiErrorOf(error, deps.log) });
    } finally {
      deps.jobs.off('segments', onSegments);
      sse.end();
    }
  })();
}
