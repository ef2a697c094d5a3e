/**
 * The speech tools an AI agent gets over MCP: list voices, narrate text to a file or a job, transcribe a
 * media file on this machine into a chosen format, read a job. Jobs are Local API jobs (they count against
 * the queue and show in GET /jobs/{id} and the editor's Jobs view), admitted with the same validators,
 * voice and model checks as the HTTP routes.
 */
import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { invalidRequest } from '../contract/errors';
import { OUTPUT_FORMATS, type TranscriptFormat } from '../contract/openapi';
import { succeededJob } from '../jobs/job-outcome';
import { toPublicJob, type PublicJob } from '../jobs/types';
import { waitForJobEnd } from '../jobs/wait-for-job';
import { admitStt, admitTts, checkSttFields, installedSttModels, requireSttModel } from '../jobs/admission';
import { storedInputName } from '../contract/media-types';
import type { AppDeps } from '../http/app-deps';
import { findApiJob } from '../jobs/job-lookup';
import { defaultVoice } from '../voices/default-voice';
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

/** Writes are explicit: an absolute path, and an existing file is replaced only when asked. */
async function checkTarget(target: string, overwrite: boolean | undefined, field: string): Promise<string> {
  if (!path.isAbsolute(target)) throw invalidRequest(`${field}: must be an absolute path`);
  const existing = await stat(target).catch(() => undefined);
  if (existing?.isDirectory()) throw invalidRequest(`${field}: is a folder; give a file name`);
  if (existing && !overwrite) throw invalidRequest(`${field}: ${target} exists; pass overwrite: true to replace it`);
  return target;
}

export function speechTools(deps: McpDeps) {
  const overrides = { ...voiceOverridesFromEnv(), ...deps.openAiVoices };
  /** A voice id or exact name, or an OpenAI voice name (alloy, nova, …) as the OpenAI door maps it. */
  const resolvedVoice = (wanted: string) => {
    const match = resolveVoice(deps.voices, wanted, overrides);
    if (!match.found) throw invalidRequest(`voice: no voice ${JSON.stringify(wanted.slice(0, 100))}; see list_voices`);
    return match.entry;
  };

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
      const voice = input.voice === undefined ? defaultVoice(deps.voices) : resolvedVoice(input.voice);
      const target = input.outputPath ? await checkTarget(input.outputPath, input.overwrite, 'outputPath') : undefined;
      const format = input.format ?? (target ? formatOfPath(target) : 'wav');
      const admitted = admitTts(deps.validators, { voiceId: voice.voice.id, text: input.text, outputFormat: format, ...(input.speed ? { speed: input.speed } : {}) }, deps.voices);
      const created = await deps.jobs.createTtsJob({ origin: 'api', ...admitted, name: `MCP narration: ${input.text.replace(/\s+/g, ' ').trim().slice(0, 40)}` });
      if (!target) return { job: toPublicJob(created) };
      const done = succeededJob(await waitForJobEnd(deps.jobs, created.id, signal));
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
      const created = await deps.jobs.createSttJobWith('api', async (_id, dir) => {
        const inputFile = storedInputName(input.path);
        await copyFile(input.path, path.join(dir, inputFile));
        const originalName = path.basename(input.path);
        return { options, inputFile, originalName, bytes: source.size, modelPath: model.path, name: `MCP transcription: ${originalName}`.slice(0, 200) };
      });
      const done = succeededJob(await waitForJobEnd(deps.jobs, created.id, signal));
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

