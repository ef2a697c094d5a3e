/**
 * Creating jobs from the editor: the same checks and defaults as the Local API (the request schemas of
 * the OpenAPI document), but with origin 'editor', so the HTTP API never sees them, and with media read
 * from a local file instead of an upload.
 */
import { copyFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { storedInputName } from '../contract/media-types';
import type { SttOptions, TtsRequest } from '../contract/types';
import { compileValidators, type Validators } from '../contract/validation';
import { isActive, type JobRecord } from '../jobs/types';
import { chooseWhisperModel, diarizationModelsInstalled, listWhisperModels } from '../models/installed-models';
import type { LocalServer } from '../server/local-server';
import { languageTagStartsWith } from '../voices/language-tag';
import type { VoiceEntry, VoiceLibrary } from '../voices/library';

/**
 * A TTS request from the editor: the Local API's fields; `voiceId` defaults to the configured voice.
 * `speakerVoices` (subtitle narration only) maps speaker names (`<v Name>`, `Name:`) to voice ids.
 */
export type EditorTtsRequest = Partial<Omit<TtsRequest, 'text'>> & { text: string; speakerVoices?: Record<string, string> };

/** An STT request from the editor: a local media file and the Local API's options. */
export type EditorSttRequest = Partial<SttOptions> & { file: string };

export class EditorJobError extends Error {
  constructor(message: string, readonly code: 'INVALID_REQUEST' | 'VOICE_NOT_READY' | 'MODEL_NOT_INSTALLED' | 'FILE_NOT_FOUND') {
    super(message);
    this.name = 'EditorJobError';
  }
}

export interface EditorJobsDeps {
  server(): Promise<LocalServer>;
  voices: VoiceLibrary;
  dataDir(): string;
  defaultVoiceId(): string;
  preferredSttModel(): string | undefined;
  /** The editor's display language (`vscode.env.language`), for the default voice. */
  editorLanguage(): string;
}

export class EditorJobs {
  private readonly validators: Validators = compileValidators();

  constructor(private readonly deps: EditorJobsDeps) {}

  /** The configured voice, else the first ready voice of the editor's language, else of English. */
  defaultVoice(): VoiceEntry {
    const configured = this.deps.defaultVoiceId();
    const entry = configured ? this.deps.voices.get(configured) : undefined;
    if (entry?.voice.availability === 'ready') return entry;
    const all = this.deps.voices.list({ scope: 'installed', sortBy: 'name', sortDirection: 'asc', page: 1, limit: 10_000 }).items;
    for (const language of [this.deps.editorLanguage(), 'en-US', 'en']) {
      const match = all.find((v) => v.languageCode.toLowerCase() === language.toLowerCase()) ?? all.find((v) => languageTagStartsWith(v.languageCode, language));
      if (match) return this.deps.voices.get(match.id)!;
    }
    throw new EditorJobError('No voice is installed.', 'VOICE_NOT_READY');
  }

  async createTts(request: EditorTtsRequest): Promise<JobRecord> {
    const { speakerVoices, ...fields } = request;
    const voiceId = fields.voiceId ?? this.defaultVoice().voice.id;
    const checked = this.validators.ttsRequest({ ...fields, voiceId });
    if (!checked.ok) throw new EditorJobError(checked.message, 'INVALID_REQUEST');
    const entry = this.readyVoice(voiceId, 'voiceId');
    const speakers = Object.entries(speakerVoices ?? {}).map(([name, id]) => [name, this.readyVoice(id, `speakerVoices.${name}`).ref] as const);
    const voice = speakers.length > 0 && checked.value.inputFormat !== 'txt' ? { ...entry.ref, speakers: Object.fromEntries(speakers) } : entry.ref;
    const { jobs } = await this.deps.server();
    return jobs.createTtsJob({ origin: 'editor', request: checked.value, voice }, jobs.reserve('editor'));
  }

  private readyVoice(voiceId: string, field: string): VoiceEntry {
    const entry = this.deps.voices.get(voiceId);
    if (!entry) throw new EditorJobError(`${field}: no voice ${voiceId} in the voice library`, 'INVALID_REQUEST');
    if (entry.voice.availability !== 'ready') {
      throw new EditorJobError(`The voice ${entry.voice.name} is ${entry.voice.availability.replace('_', ' ')}.`, 'VOICE_NOT_READY');
    }
    return entry;
  }

  async createStt(request: EditorSttRequest): Promise<JobRecord> {
    const { file, ...fields } = request;
    const source = path.resolve(file);
    const info = await stat(source).catch(() => undefined);
    if (!info?.isFile()) throw new EditorJobError(`There is no media file ${source}.`, 'FILE_NOT_FOUND');
    const checked = this.validators.sttOptions(Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])));
    if (!checked.ok) throw new EditorJobError(checked.message, 'INVALID_REQUEST');
    const options = checked.value;
    const dataDir = this.deps.dataDir();
    const model = chooseWhisperModel(await listWhisperModels(dataDir), options.language, this.deps.preferredSttModel());
    if (!model) {
      throw new EditorJobError('No speech-to-text model is installed for this language: run "Speech Studio: Install Model…".', 'MODEL_NOT_INSTALLED');
    }
    if (options.diarizationEnabled && !(await diarizationModelsInstalled(dataDir))) {
      if (request.diarizationEnabled === true) {
        throw new EditorJobError('Speaker diarization needs the diarization models, which are not installed: run "Speech Studio: Install Model…".', 'MODEL_NOT_INSTALLED');
      }
      options.diarizationEnabled = false; // on by default; without its models a plain transcript is what was asked
    }
    const { jobs } = await this.deps.server();
    const id = jobs.newJobId();
    const inputFile = storedInputName(source);
    try {
      await jobs.files.create(id);
      await copyFile(source, jobs.files.file(id, inputFile));
      return await jobs.createSttJob(
        { id, origin: 'editor', options, inputFile, originalName: path.basename(source), bytes: info.size, modelPath: model.path },
        jobs.reserve('editor'),
      );
    } catch (error) {
      await jobs.files.remove(id);
      throw error;
    }
  }

  /** Absolute path of a succeeded job's output (TTS audio) or transcript (STT `transcript.json`). */
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
