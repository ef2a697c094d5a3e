/**
 * The speech tools an AI agent gets over MCP: list voices, narrate text to a file or a job, transcribe a
 * media file on this machine into a chosen format, read a job. Jobs are Local API jobs (they count against
 * the queue and show in GET /jobs/{id} and the editor's Jobs view), admitted with the same validators,
 * voice and model checks as the HTTP routes.
 */
import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError, invalidRequest } from '../contract/errors';
import { OUTPUT_FORMATS, type TranscriptFormat } from '../contract/openapi';
import { QueueFullError, type JobService, type Reservation } from '../jobs/job-service';
import { toPublicJob, type JobRecord, type PublicJob } from '../jobs/types';
import { waitForJobEnd } from '../jobs/wait-for-job';
import { admitStt, admitTts, checkSttFields, installedSttModels, requireSttModel } from '../jobs/admission';
import { storedInputName } from '../contract/media-types';
import type { AppDeps } from '../http/app-deps';
import { findApiJob } from '../jobs/job-lookup';
import { queueFull } from '../http/queue-full';
import { resolveVoice, voiceOverridesFromEnv } from '../voices/voice-map';
import { renderTranscript } from '../subtitles/render';
import type { Transcript } from '../subtitles/types';

/** What the tools need of the server: the same dependencies as the HTTP app. */
export type McpDeps = Pick<AppDeps, 'dataDir' | 'jobs' | 'voices' | 'validators' | 'log' | 'preferredSttModel' | 'openAiVoices'>;

export interface NarrateInput {
  text: string;
  voice?: string;
  format?: (typeof OUTPUT_FORMATS)[number];
  outputPath?: string;
  overwrite?: boolean;
  speed?: number;
}

export interface TranscribeInput {
  path: string;
  format?: TranscriptFormat;
  language?: string;
  outputPath?: string;
  overwrite?: boolean;
}

export interface VoiceSummary {
  id: string;
  name: string;
  languageCode: string;
  gender?: string;
  availability: string;
}

/** The voice an agent gets when it names none: the one OpenAI's default `alloy` maps to. */
const DEFAULT_VOICE = 'alloy';

function reserve(jobs: JobService): Reservation {
  try {
    return jobs.reserve('api');
  } catch (error) {
    if (error instanceof QueueFullError) throw queueFull(error);
    throw error;
  }
}

/** Writes are explicit: an absolute path, and an existing file is replaced only when asked. */
async function checkTarget(target: string, overwrite: boolean | undefined, field: string): Promise<string> {
  if (!path.isAbsolute(target)) throw invalidRequest(`${field}: must be an absolute path`);
  const existing = await stat(target).catch(() => undefined);
  if (existing?.isDirectory()) throw invalidRequest(`${field}: is a folder; give a file name`);
  if (existing && !overwrite) throw invalidRequest(`${field}: ${target} exists; pass overwrite: true to replace it`);
  return target;
}

function ended(job: JobRecord): JobRecord {
  if (job.status === 'succeeded') return job;
  throw new ApiError(job.status === 'failed' && job.phase === 'decoding' ? 'INVALID_REQUEST' : 'INTERNAL_ERROR',
    `The job ${job.id} ${job.status === 'failed' ? `failed: ${(job.error ?? '').replace(/\.$/, '')}` : `was ${job.status}`}.`);
}

export function speechTools(deps: McpDeps) {
  const overrides = { ...voiceOverridesFromEnv(), ...deps.openAiVoices };

  return {
    listVoices(input: { search?: string; languageCode?: string; limit?: number }): { voices: VoiceSummary[]; total: number } {
      const page = deps.voices.list({
        search: input.search, languageCode: input.languageCode, scope: 'all', sortBy: 'name', sortDirection: 'asc', page: 1, limit: input.limit ?? 20,
      });
      return {
        voices: page.items.map(({ id, name, languageCode, gender, availability }) => ({ id, name, languageCode, ...(gender ? { gender } : {}), availability })),
        total: page.meta.total,
      };
    },

    /** Starts a narration; with `outputPath`, waits for it and writes the audio there. */
    async narrate(input: NarrateInput, signal?: AbortSignal): Promise<{ job: PublicJob; outputPath?: string }> {
      const wanted = input.voice ?? DEFAULT_VOICE;
      const match = resolveVoice(deps.voices, wanted, overrides);
      if (!match.found) throw invalidRequest(`voice: no voice ${JSON.stringify(wanted.slice(0, 100))}; see list_voices`);
      const target = input.outputPath ? await checkTarget(input.outputPath, input.overwrite, 'outputPath') : undefined;
      const format = input.format ?? (target ? formatOfPath(target) : 'wav');
      const admitted = admitTts(deps.validators, { voiceId: match.entry.voice.id, text: input.text, outputFormat: format, ...(input.speed ? { speed: input.speed } : {}) }, deps.voices);
      const created = await deps.jobs.createTtsJob(
        { origin: 'api', ...admitted, name: `MCP narration: ${input.text.replace(/\s+/g, ' ').trim().slice(0, 40)}` },
        reserve(deps.jobs),
      );
      if (!target) return { job: toPublicJob(created) };
      const done = ended(await waitForJobEnd(deps.jobs, created.id, signal));
      await copyFile(deps.jobs.files.file(done.id, done.outputFile!), target);
      return { job: toPublicJob(done), outputPath: target };
    },

    /** Transcribes a media file of this machine; waits, and answers the transcript in the format asked. */
    async transcribe(input: TranscribeInput, signal?: AbortSignal): Promise<{ job: PublicJob; transcript: string; outputPath?: string }> {
      if (!path.isAbsolute(input.path)) throw invalidRequest('path: must be an absolute path to a media file');
      const source = await stat(input.path).catch(() => undefined);
      if (!source?.isFile()) throw invalidRequest(`path: ${input.path} is not a file`);
      const target = input.outputPath ? await checkTarget(input.outputPath, input.overwrite, 'outputPath') : undefined;
      const format = input.format ?? 'txt';
      const installed = await installedSttModels(deps.dataDir);
      requireSttModel(installed);
      const ask = checkSttFields(deps.validators, { language: input.language ?? 'auto', diarizationEnabled: 'false' });
      const { options, model } = admitStt(ask, installed, deps.preferredSttModel?.());
      const reservation = reserve(deps.jobs);
      const id = deps.jobs.newJobId();
      let created: JobRecord;
      try {
        await deps.jobs.files.create(id);
        const inputFile = storedInputName(input.path);
        await copyFile(input.path, deps.jobs.files.file(id, inputFile));
        const originalName = path.basename(input.path);
        created = await deps.jobs.createSttJob(
          { id, origin: 'api', options, inputFile, originalName, bytes: source.size, modelPath: model.path, name: `MCP transcription: ${originalName}`.slice(0, 200) },
          reservation,
        );
      } catch (error) {
        reservation.release();
        await deps.jobs.files.remove(id);
        throw error;
      }
      const done = ended(await waitForJobEnd(deps.jobs, created.id, signal));
      const transcript = JSON.parse(await readFile(deps.jobs.files.file(done.id, done.outputFile!), 'utf8')) as Transcript;
      const rendered = renderTranscript(transcript, format).body;
      if (target) await writeFile(target, rendered, 'utf8');
      return { job: toPublicJob(done), transcript: rendered, ...(target ? { outputPath: target } : {}) };
    },

    readJob(id: string): PublicJob {
      return toPublicJob(findApiJob(deps.jobs, id));
    },
  };
}

export type SpeechTools = ReturnType<typeof speechTools>;

/** The audio format a file name asks for (`talk.mp3` → mp3), wav otherwise. */
function formatOfPath(file: string): (typeof OUTPUT_FORMATS)[number] {
  const extension = path.extname(file).slice(1).toLowerCase();
  return (OUTPUT_FORMATS as readonly string[]).includes(extension) ? (extension as (typeof OUTPUT_FORMATS)[number]) : 'wav';
}

