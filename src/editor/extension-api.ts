/**
 * The API that `activate()` returns to other extensions. Jobs created through it are editor jobs:
 * they run on the same engine and queue as the Local API's, but the HTTP API never shows them.
 *
 * @example
 * const studio = vscode.extensions.getExtension<SpeechStudioApi>('speech-studio.speech-studio');
 * const api = await studio!.activate();
 * const job = await api.createTtsJob({ text: 'Hello from another extension.' });
 * api.onDidChangeJob((changed) => {
 *   if (changed.id === job.id && changed.status === 'succeeded') console.log('audio at', changed.outputPath);
 * });
 */
import * as vscode from 'vscode';
import { JobFiles } from '../jobs/job-files';
import type { JobRecord, PublicJob } from '../jobs/types';
import { jobKindOf } from '../jobs/kinds';
import { isLocalOnlyKind, toPublicJob } from '../jobs/types';
import { baseUrlOf } from './commands/local-api';
import type { EditorSttRequest, EditorTtsRequest } from './editor-jobs';
import {
  startLiveTranscription,
  type LiveTranscriptionOptions,
  type LiveTranscriptionSession,
} from './live-transcription';
import type { Services } from './services';

export type { EditorSttRequest, EditorTtsRequest, LiveTranscriptionOptions, LiveTranscriptionSession };

/** A job as the Local API shows it, plus where its result is once it succeeded. */
export interface SpeechStudioJob extends PublicJob {
  /** Absolute path of the audio (TTS) or of `transcript.json` (STT) when the job succeeded. */
  outputPath?: string;
}

export interface SpeechStudioApi {
  /** The Local API's base URL, e.g. `http://127.0.0.1:17860/v1`; undefined while it is off or not running. */
  readonly baseUrl: string | undefined;
  /** The bearer key for the Local API (needed when `speechStudio.localApi.auth` is on). */
  getApiKey(): Promise<string>;
  /** Queues a text-to-speech job; the fields are the Local API's `POST /tts/jobs` body, `voiceId` optional. */
  createTtsJob(request: EditorTtsRequest): Promise<SpeechStudioJob>;
  /** Queues a speech-to-text job for a local media file; the options are those of `POST /stt/jobs`. */
  createSttJob(request: EditorSttRequest): Promise<SpeechStudioJob>;
  /** Any job, editor or Local API; undefined when there is none with that id. */
  getJob(id: string): SpeechStudioJob | undefined;
  /** Cancels a queued or running job; rejects when it has already finished. */
  cancelJob(id: string): Promise<SpeechStudioJob>;
  /** Fires on every visible change of every job: status, progress, phase. */
  readonly onDidChangeJob: vscode.Event<SpeechStudioJob>;
  /**
   * Starts a live transcription session: push 16-bit mono PCM, get partial words and each utterance's final
   * text. It runs on the same engine as the Local API's live sessions (`/v1/realtime`), in the server's process.
   * @example
   * const live = await api.startLiveTranscription({ sampleRate: 16000, language: 'en' });
   * live.onDidCompleteItem(({ transcript }) => console.log(transcript));
   * live.pushPcm(samples); // again and again as audio arrives
   * await live.stop();
   */
  startLiveTranscription(options?: LiveTranscriptionOptions): Promise<LiveTranscriptionSession>;
}

export function createApi(services: Services): SpeechStudioApi {
  const { controller } = services;
  const toJob = (job: JobRecord): SpeechStudioJob => {
    const outputPath =
      job.status === 'succeeded' && job.outputFile
        ? new JobFiles(controller.dataDir).file(job.id, job.outputFile)
        : undefined;
    return outputPath ? { ...toPublicJob(job), outputPath } : toPublicJob(job);
  };
  return {
    get baseUrl() {
      return baseUrlOf(services);
    },
    getApiKey: async () => services.keys.get(),
    createTtsJob: async (request) => {
      if (typeof request?.text !== 'string')
        throw new TypeError(`Expected { text: string }, got ${JSON.stringify(request)}`);
      return toJob(await services.editorJobs.createTts(request));
    },
    createSttJob: async (request) => {
      if (typeof request?.file !== 'string')
        throw new TypeError(`Expected { file: string }, got ${JSON.stringify(request)}`);
      return toJob(await services.editorJobs.createStt(request));
    },
    // Audiobook exports are editor-internal `book` jobs: this API shows the Local API's job kinds only (docs/decisions.md).
    getJob: (id) => {
      const job = controller.jobs().find((j) => j.id === id && !isLocalOnlyKind(j.kind));
      return job && toJob(job);
    },
    cancelJob: async (id) => {
      const { jobs } = await controller.ready();
      const kind = jobs.get(id)?.kind;
      if (kind && isLocalOnlyKind(kind))
        throw new Error(`Job ${id} is ${jobKindOf(kind).phrase}; cancel it in the Jobs view.`);
      return toJob(await jobs.cancel(id));
    },
    startLiveTranscription: async (options) => {
      const session = await startLiveTranscription(controller, options);
      // Sessions end with the extension at the latest.
      services.context.subscriptions.push(session);
      return session;
    },
    onDidChangeJob: (listener, thisArg, disposables) =>
      controller.onDidChangeJob(
        (job) => void (!isLocalOnlyKind(job.kind) && listener.call(thisArg, toJob(job))),
        undefined,
        disposables,
      ),
  };
}
