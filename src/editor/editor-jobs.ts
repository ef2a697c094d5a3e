/**
 * Creating jobs from the editor: admitted by the same rules as the Local API's (src/jobs/admission.ts),
 * refused with the same coded errors and messages, but with origin 'editor', so the HTTP API never sees
 * them, and with media read from a local file instead of an upload.
 */
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError, hasCode } from '../contract/errors';
import { storedInputName } from '../contract/media-types';
import { requireRegularFile } from '../local-files/user-files';
import type { LexiconEntry, SttOptions, TtsRequest } from '../contract/types';
import { compileValidators, type Validators } from '../contract/validation';
import { admitStt, admitTts, checkSttFields, installedSttModels, type AdmittedTts } from '../jobs/admission';
import { createBookExport, finishBookExport, type NewBookExport } from '../jobs/book-export';
import { createTranslateJob, finishTranslateJob, type TranslateRequest } from '../jobs/translate-job';
import { createDubJob, finishDubJob, type DubRequest } from '../jobs/dub-job';
import { isActive, type JobRecord } from '../jobs/types';
import type { VerifyTestHooks } from '../jobs/verify-admission';
import { mergeLexicons } from '../lexicon/merge-lexicon';
import type { LocalServer } from '../host/local-server';
import type { ExtraOutputFormat, SsmlTaskMarkup } from '../engine-api/protocol';
import { defaultVoice } from '../voices/default-voice';
import type { VoiceEntry, VoiceLibrary } from '../voices/library';
import { admitSsml, looksLikeSsml, ssmlAudioFolders } from '../jobs/ssml-admission';

/**
 * A TTS request from the editor: the Local API's fields; `voiceId` defaults to the configured voice.
 * `speakerVoices` (subtitle narration only) maps speaker names (`<v Name>`, `Name:`) to voice ids.
 * `lexicon`: entries that win over the workspace's and the server's (Add Pronunciation's preview).
 */
export type EditorTtsRequest = Partial<Omit<TtsRequest, 'text'>> & {
  text: string;
  speakerVoices?: Record<string, string>;
  lexicon?: readonly LexiconEntry[];
  /** Folders an SSML text's `<audio src>` may name files in (the workspace); `<data dir>/audio` is always one. */
  audioFolders?: readonly string[];
  /** A format the engine encodes instead of `outputFormat` (Save Narration As… to .ogg or .m4a). */
  encodeAs?: ExtraOutputFormat;
};

/** An STT request from the editor: a local media file and the Local API's options. */
export type EditorSttRequest = Partial<SttOptions> & {
  file: string;
  /** An installed model's name, preferred over the `stt.defaultModel` setting (Transcribe Media File's answer). */
  model?: string;
};

export interface EditorJobsDeps {
  server(): Promise<Pick<LocalServer, 'jobs'>>;
  voices: VoiceLibrary;
  dataDir(): string;
  defaultVoiceId(): string;
  preferredSttModel(): string | undefined;
  /** The editor's display language (`vscode.env.language`), for the default voice. */
  editorLanguage(): string;
  /** The workspace's `.speech/lexicon.json` entries, which win over the server's lexicon; none when absent or invalid. */
  workspaceLexicon?(): Promise<readonly LexiconEntry[]>;
  /** The test hooks the composition root reads (src/editor/server-controller.ts); never set in use. */
  testHooks?: () => VerifyTestHooks;
}

/** In the editor, a missing model is installed with a command, not the CLI the API's message names. */
function withEditorHint(error: unknown): unknown {
  if (hasCode(error, 'MODEL_NOT_INSTALLED')) {
    return new ApiError(error.code, `${error.message} In VS Code: run "Speech Studio: Install Model…".`);
  }
  return error;
}

export class EditorJobs {
  private readonly validators: Validators = compileValidators();

  constructor(private readonly deps: EditorJobsDeps) {}

  /** The configured voice, else the best ready voice of the editor's language, else of English (src/voices/default-voice.ts). */
  defaultVoice(): VoiceEntry {
    return defaultVoice(this.deps.voices, {
      configured: this.deps.defaultVoiceId(),
      language: this.deps.editorLanguage(),
    });
  }

  /** What createTts would queue, or the refusal (ApiError) the Local API would answer, without creating a job. */
  admitTts(request: EditorTtsRequest): AdmittedTts {
    const { speakerVoices, lexicon: _lexicon, audioFolders: _folders, encodeAs: _encodeAs, ...fields } = request;
    const voiceId = fields.voiceId ?? this.defaultVoice().voice.id;
    return admitTts(this.validators, { ...fields, voiceId }, this.deps.voices, speakerVoices);
  }

  /**
   * The voices and audio files of an SSML text, admitted as createTts admits them (Read Aloud speaks SSML
   * parts without a job); `audioFolders` are where `<audio src>` may point besides `<data dir>/audio`.
   */
  admitSsml(text: string, audioFolders: readonly string[]): Promise<SsmlTaskMarkup> {
    return admitSsml(
      text,
      this.deps.voices,
      [...audioFolders, ...ssmlAudioFolders({ dataDir: this.deps.dataDir() })],
      'text',
      { passage: true },
    );
  }

  async createTts(request: EditorTtsRequest): Promise<JobRecord> {
    const admitted = this.admitTts(request);
    const lexicon = mergeLexicons((await this.deps.workspaceLexicon?.()) ?? [], request.lexicon ?? []);
    // A text that starts with <speak> is SSML (docs/ssml.md), admitted by the same core rule as the other doors.
    const ssml = looksLikeSsml(request.text)
      ? await admitSsml(request.text, this.deps.voices, [
          ...(request.audioFolders ?? []),
          ...ssmlAudioFolders({ dataDir: this.deps.dataDir() }),
        ])
      : undefined;
    const { jobs } = await this.deps.server();
    return jobs.createTtsJob({
      origin: 'editor',
      ...admitted,
      ...(lexicon.length ? { lexicon } : {}),
      ...(ssml ? { ssml } : {}),
      ...(request.encodeAs ? { encodeAs: request.encodeAs } : {}),
    });
  }

  /**
   * Queues an audiobook export as an editor job (src/jobs/book-export.ts), in the configured or best voice
   * and with the workspace lexicon; a bad manuscript or output place is refused before any synthesis.
   */
  async createBook(request: Omit<NewBookExport, 'origin' | 'lexicon'>): Promise<JobRecord> {
    const { jobs } = await this.deps.server();
    const lexicon = (await this.deps.workspaceLexicon?.()) ?? [];
    const voiceId = request.voiceId ?? this.defaultVoice().voice.id;
    return createBookExport(
      {
        jobs,
        voices: this.deps.voices,
        validators: this.validators,
        ...(this.deps.testHooks ? { testHooks: this.deps.testHooks } : {}),
      },
      { ...request, voiceId, origin: 'editor', lexicon },
    );
  }

  /** Waits for a book job to end (aborting `signal` cancels it); an unfinished book leaves no partial file. */
  async finishBook(job: JobRecord, signal?: AbortSignal): ReturnType<typeof finishBookExport> {
    const { jobs } = await this.deps.server();
    return finishBookExport(jobs, job, signal);
  }

  /** Queues a subtitle translation as an editor job (src/jobs/translate-job.ts); a bad file or missing model is refused first. */
  async createTranslation(request: Omit<TranslateRequest, 'origin'>): Promise<JobRecord> {
    const { jobs } = await this.deps.server();
    return createTranslateJob(jobs, this.deps.dataDir(), { ...request, origin: 'editor' });
  }

  /** Waits for a translation job to end (aborting `signal` cancels it); an unfinished one leaves no partial file. */
  async finishTranslation(job: JobRecord, signal?: AbortSignal): ReturnType<typeof finishTranslateJob> {
    const { jobs } = await this.deps.server();
    return finishTranslateJob(jobs, job, signal);
  }

  /** Queues a dub as an editor job (src/jobs/dub-job.ts); a bad request, a missing model or voice is refused first. */
  async createDub(request: Omit<DubRequest, 'origin'>): Promise<JobRecord> {
    const { jobs } = await this.deps.server();
    return createDubJob(jobs, this.deps.dataDir(), this.deps.voices, {
      ...request,
      origin: 'editor',
      ...(this.deps.preferredSttModel() ? { sttModel: this.deps.preferredSttModel() } : {}),
    });
  }

  /** Waits for a dub to end (aborting `signal` cancels it); an unfinished one leaves no partial file. */
  async finishDub(job: JobRecord, signal?: AbortSignal): ReturnType<typeof finishDubJob> {
    const { jobs } = await this.deps.server();
    return finishDubJob(jobs, job, signal);
  }

  /**
   * The lexicon an editor TTS job speaks with: the workspace's entries over the data directory's, merged by
   * the job service as for a job. Read Aloud applies it itself, sentence by sentence.
   */
  async spokenLexicon(): Promise<readonly LexiconEntry[]> {
    const workspace = (await this.deps.workspaceLexicon?.()) ?? [];
    return (await this.deps.server()).jobs.lexiconWith(workspace);
  }

  async createStt(request: EditorSttRequest): Promise<JobRecord> {
    const { file, model: chosenModel, ...fields } = request;
    const source = path.resolve(file);
    const info = await requireRegularFile(source, 'media file');
    // The options as a form would send them, so that admission reads them exactly as it reads an upload's.
    const form = Object.fromEntries(
      Object.entries(fields)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    );
    const ask = checkSttFields(this.validators, form);
    let admitted;
    try {
      admitted = admitStt(
        ask,
        await installedSttModels(this.deps.dataDir()),
        chosenModel ?? this.deps.preferredSttModel(),
      );
    } catch (error) {
      throw withEditorHint(error);
    }
    const { options, model } = admitted;
    const inputFile = storedInputName(source);
    const { jobs } = await this.deps.server();
    return jobs.createSttJobWith('editor', async (_id, dir) => {
      await copyFile(source, path.join(dir, inputFile));
      return { options, inputFile, originalName: path.basename(source), bytes: info.size, modelPath: model.path };
    });
  }

  /** The names of the installed speech-to-text models (Transcribe Media File asks which, when there are several). */
  async sttModelNames(): Promise<string[]> {
    return (await installedSttModels(this.deps.dataDir())).models.map((model) => model.name);
  }

  /** Absolute path of a succeeded job's output (TTS audio) or transcript (STT `transcript.json`). */
  /** The job's record as the store has it now. */
  async job(jobId: string): Promise<JobRecord | undefined> {
    const { jobs } = await this.deps.server();
    return jobs.get(jobId);
  }

  async outputPath(job: JobRecord): Promise<string | undefined> {
    if (job.status !== 'succeeded' || !job.outputFile) return undefined;
    const { jobs } = await this.deps.server();
    return jobs.files.file(job.id, job.outputFile);
  }
}

/**
 * Resolves with the job once it has finished (succeeded, failed, cancelled or interrupted).
 * @example const done = await untilFinished(controller.onDidChangeJob, () => jobs.get(id), id);
 */
export function untilFinished(
  onDidChangeJob: (listener: (job: JobRecord) => void) => { dispose(): void },
  latest: () => JobRecord | undefined,
  id: string,
): Promise<JobRecord> {
  return new Promise((resolve, reject) => {
    const check = (job: JobRecord | undefined): boolean => {
      if (job && job.id === id && !isActive(job.status)) {
        subscription.dispose();
        resolve(job);
        return true;
      }
      return false;
    };
    const subscription = onDidChangeJob((job) => void check(job));
    const now = latest();
    if (!now) {
      subscription.dispose();
      reject(new Error(`Job ${id} is not in the store.`));
      return;
    }
    check(now);
  });
}
