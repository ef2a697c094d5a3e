/**
 * The speech tools an AI agent gets over MCP: list voices, narrate text to a file or a job, transcribe a
 * media file on this machine into a chosen format, read a job. Jobs are Local API jobs (they count against
 * the queue and show in GET /jobs/{id} and the editor's Jobs view), admitted with the same validators,
 * voice and model checks as the HTTP routes.
 */
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { invalidRequest } from '../contract/errors';
import { OUTPUT_FORMATS, type TranscriptFormat } from '../contract/openapi';
import { succeededJob } from '../jobs/job-outcome';
import { toPublicJob, type PublicJob } from '../jobs/types';
import { waitForJobEnd } from '../jobs/wait-for-job';
import { admitStt, admitTts, checkSttFields, installedSttModels, requireSttModel } from '../jobs/admission';
import { admitSsml, looksLikeSsml, ssmlAudioFolders } from '../jobs/ssml-admission';
import { storedInputName } from '../contract/media-types';
import type { AppDeps } from '../jobs/app-deps';
import { findApiJob } from '../jobs/job-lookup';
import { defaultVoice } from '../voices/default-voice';
import { resolveVoice } from '../voices/voice-map';
import { renderTranscript } from '../subtitles/render';
import { readJobTranscript } from '../jobs/job-transcript';
import { allowedFolders, confineOutput, writeConfined } from '../local-files/confined-paths';
import { refuseOutputOverInput } from '../local-files/user-files';
import { confinedMedia } from './confined-media';

/** What the tools need of the server: the same dependencies as the HTTP app. */
export type McpDeps = Pick<
  AppDeps,
  | 'dataDir'
  | 'jobs'
  | 'voices'
  | 'validators'
  | 'log'
  | 'preferredSttModel'
  | 'openAiVoices'
  | 'allowedFolders'
  | 'maxUploadBytes'
  | 'engineConfig'
>;

/** The folders the connected client declared as its roots, when it declares any (stdio; stateless HTTP cannot ask). */
export type ClientRoots = () => Promise<readonly string[] | undefined>;

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

export function speechTools(deps: McpDeps, clientRoots: ClientRoots = async () => undefined) {
  const overrides = deps.openAiVoices ?? {};
  const folders = async (): Promise<string[]> => allowedFolders(await clientRoots(), deps.allowedFolders?.() ?? []);
  /** A voice id or exact name, or an OpenAI voice name (alloy, nova, …) as the OpenAI door maps it. */
  const resolvedVoice = (wanted: string) => {
    const match = resolveVoice(deps.voices, wanted, overrides);
    if (!match.found) throw invalidRequest(`voice: no voice ${JSON.stringify(wanted.slice(0, 100))}; see list_voices`);
    return match.entry;
  };

  return {
    /** The folders file tools may use: the client's roots within the configured folders. */
    folders,

    listVoices(input: { search?: string; languageCode?: string; limit?: number }): {
      voices: VoiceSummary[];
      total: number;
    } {
      const page = deps.voices.list({
        search: input.search,
        languageCode: input.languageCode,
        scope: 'all',
        sortBy: 'name',
        sortDirection: 'asc',
        page: 1,
        limit: input.limit ?? 20,
      });
      return {
        voices: page.items.map(({ id, name, languageCode, gender, availability }) => ({
          id,
          name,
          languageCode,
          ...(gender ? { gender } : {}),
          availability,
        })),
        total: page.meta.total,
      };
    },

    /** Starts a narration; with `outputPath`, waits for it and writes the audio there. */
    async narrate(input: NarrateInput, signal?: AbortSignal): Promise<{ job: PublicJob; outputPath?: string }> {
      const voice = input.voice === undefined ? defaultVoice(deps.voices) : resolvedVoice(input.voice);
      const allowed = input.outputPath ? await folders() : [];
      const target = input.outputPath;
      if (target) await confineOutput(target, allowed, input.overwrite ?? false);
      const format = input.format ?? (target ? formatOfPath(target) : 'wav');
      const admitted = admitTts(
        deps.validators,
        {
          voiceId: voice.voice.id,
          text: input.text,
          outputFormat: format,
          ...(input.speed ? { speed: input.speed } : {}),
        },
        deps.voices,
      );
      const ssml = looksLikeSsml(input.text)
        ? await admitSsml(input.text, deps.voices, [
            ...(await folders()),
            ...ssmlAudioFolders({ dataDir: deps.dataDir }),
          ])
        : undefined;
      const created = await deps.jobs.createTtsJob({
        origin: 'api',
        ...admitted,
        name: `MCP narration: ${input.text.replace(/\s+/g, ' ').trim().slice(0, 40)}`,
        ...(ssml ? { ssml } : {}),
      });
      if (!target) return { job: toPublicJob(created) };
      const done = succeededJob(await waitForJobEnd(deps.jobs, created.id, signal));
      await writeConfined(
        target,
        allowed,
        { copyFrom: deps.jobs.files.file(done.id, done.outputFile!) },
        { overwrite: input.overwrite ?? false },
      );
      return { job: toPublicJob(done), outputPath: target };
    },

    /** Transcribes a media file of this machine; waits, and answers the transcript in the format asked. */
    async transcribe(
      input: TranscribeInput,
      signal?: AbortSignal,
    ): Promise<{ job: PublicJob; transcript: string; outputPath?: string }> {
      const allowed = await folders();
      const source = await confinedMedia(deps.maxUploadBytes, input.path, allowed, 'path');
      const target = input.outputPath;
      if (target) {
        await confineOutput(target, allowed, input.overwrite ?? false);
        await refuseOutputOverInput(target, [source.path], 'transcript');
      }
      const format = input.format ?? 'txt';
      const installed = await installedSttModels(deps.dataDir);
      requireSttModel(installed);
      const ask = checkSttFields(deps.validators, { language: input.language ?? 'auto', diarizationEnabled: 'false' });
      const { options, model } = admitStt(ask, installed, deps.preferredSttModel?.());
      const created = await deps.jobs.createSttJobWith('api', async (_id, dir) => {
        const inputFile = storedInputName(input.path);
        await copyFile(source.path, path.join(dir, inputFile));
        const originalName = path.basename(input.path);
        return {
          options,
          inputFile,
          originalName,
          bytes: source.stats.size,
          modelPath: model.path,
          name: `MCP transcription: ${originalName}`.slice(0, 200),
        };
      });
      const done = succeededJob(await waitForJobEnd(deps.jobs, created.id, signal));
      const transcript = await readJobTranscript(deps.jobs.files, done);
      const rendered = renderTranscript(transcript, format).body;
      if (target) await writeConfined(target, allowed, rendered, { overwrite: input.overwrite ?? false });
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
  return (OUTPUT_FORMATS as readonly string[]).includes(extension)
    ? (extension as (typeof OUTPUT_FORMATS)[number])
    : 'wav';
}
