/**
 * The typed messages between the server (parent) and the engine worker (child process, over IPC).
 * The parent sends `run`; the child answers with any number of `progress` messages and then exactly one
 * `result` or `failed` for that job. Cancel is not a message: the parent ends the child process.
 */
import type { SttOptions, TtsRequest } from '../api/types';

export type EnginePhase =
  | 'loading_model'
  | 'decoding'
  | 'detecting_language'
  | 'transcribing'
  | 'diarizing'
  | 'punctuating'
  | 'synthesizing'
  | 'postprocessing'
  | 'encoding';

/** The synthesizers the engine can drive. */
export type TtsEngineName = 'espeak-ng' | 'flite' | 'svox-pico' | 'sherpa-onnx';

/** The model families sherpa-onnx's OfflineTts loads. */
export type SherpaModelKind = 'vits' | 'kokoro' | 'matcha' | 'zipvoice';

/** The files and settings of a sherpa-onnx voice, with absolute paths (see src/voices/neural-voices.ts). */
export interface SherpaVoiceModel {
  kind: SherpaModelKind;
  /** Model files by sherpa's config names: model, tokens, voices, lexicon, acousticModel, vocoder, encoder, decoder. */
  files: Record<string, string>;
  /** Speaker index inside a multi-speaker model. */
  speakerId: number;
  /** Where espeak-ng's phoneme data is (or will be) unpacked for the model's front end. */
  espeakDataDir: string;
  /** Kokoro multi-lingual models take a language; others have theirs built in. */
  multiLingual?: boolean;
  /** ZipVoice clones the voice of a reference recording (16-bit WAV) with its transcript. */
  reference?: { audioPath: string; text: string };
}

/** SVOX Pico's two lingware files for one language. */
export interface PicoVoiceModel {
  textAnalysis: string;
  signalGeneration: string;
}

/** The voice of a TTS job, resolved by the voice library when the job is created. */
export interface TtsVoiceRef {
  engine: TtsEngineName;
  /** The engine's own name for the voice, e.g. espeak `gmw/en-US`, flite `slt`, a catalog id for sherpa-onnx. */
  engineVoiceId: string;
  languageCode: string;
  /** Display name, for results and error messages. */
  name?: string;
  model?: SherpaVoiceModel | PicoVoiceModel;
  /**
   * Subtitle narration only: other voices by speaker name (`<v Name>` tags, `Name:` prefixes). Set by the
   * editor's command from its setting; the API body has no such field.
   */
  speakers?: Record<string, TtsVoiceRef>;
}

/** Everything the engine needs to synthesize one TTS job; paths are absolute. */
export interface TtsTask {
  kind: 'tts';
  /** UTF-8 file holding the request's text (kept out of IPC messages and the job store). */
  textPath: string;
  /** Where the finished audio goes; the engine writes a temporary file beside it and renames at the end. */
  outputPath: string;
  options: Omit<TtsRequest, 'text'>;
  voice: TtsVoiceRef;
}

/** Everything the engine needs to transcribe one STT job; paths are absolute. */
export interface SttTask {
  kind: 'stt';
  inputPath: string;
  /** Folder for the transcript and intermediate files of this job. */
  workDir: string;
  modelPath: string;
  options: SttOptions;
}

export type EngineTask = TtsTask | SttTask;

export type ParentMessage = { type: 'run'; jobId: string; task: EngineTask };

export type ChildMessage =
  | { type: 'ready'; pid: number }
  | { type: 'progress'; jobId: string; phase: EnginePhase; progress: number }
  | { type: 'result'; jobId: string; backend: string; result: Record<string, unknown> }
  | { type: 'failed'; jobId: string; message: string };

/** The job-level reporter the engine-side code receives: `progress` is 0–100 over the whole job. */
export interface ProgressReporter {
  (phase: EnginePhase, progress: number): void;
}

export interface TaskOutcome {
  backend: string;
  result: Record<string, unknown>;
}

/** An error whose message is already a sentence for the user (no stack, no internals). */
export class UserFacingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserFacingError';
  }
}
