/**
 * The typed messages between the server (parent) and the engine worker (child process, over IPC).
 * The parent sends `run`; the child answers with any number of `progress` messages and then exactly one
 * `result` or `failed` for that job. Cancel is not a message: the parent ends the child process.
 */
import path from 'node:path';
import type { JobResult, LexiconEntry, SttOptions, TtsRequest } from '../contract/types';
import type { ScriptFormat } from '../subtitles/script';

export type EnginePhase =
  | 'loading_model'
  | 'decoding'
  | 'detecting_language'
  | 'transcribing'
  | 'detecting_speech'
  | 'diarizing'
  | 'punctuating'
  | 'synthesizing'
  | 'postprocessing'
  | 'encoding';

export type { PicoVoiceModel, SherpaModelKind, SherpaVoiceModel, TtsEngineName, TtsVoiceRef } from '../voices/voice-ref';
import type { TtsVoiceRef } from '../voices/voice-ref';

/**
 * Formats the engine encodes beyond the Local API's output formats, for doors whose protocol has them (the
 * OpenAI door's `opus` and `pcm`: Ogg Opus, and headerless 16-bit little-endian samples); never part of a
 * Local API request body.
 */
export type ExtraOutputFormat = 'opus' | 'pcm';

/** Everything the engine needs to synthesize one TTS job; paths are absolute. */
export interface TtsTask {
  kind: 'tts';
  /** UTF-8 file holding the request's text (kept out of IPC messages and the job store). */
  textPath: string;
  /** Where the finished audio goes; the engine writes a temporary file beside it and renames at the end. */
  outputPath: string;
  options: Omit<TtsRequest, 'text'>;
  voice: TtsVoiceRef;
  /**
   * Write the output while synthesizing, sentence group by sentence group, so a reader can stream the
   * growing `<outputPath>.partial` (the OpenAI door). Plain text without a `duration` target only.
   */
  live?: boolean;
  /** Encode this instead of `options.outputFormat` (whose sample rate, channels and speech options still apply). */
  encodeAs?: ExtraOutputFormat;
  /** The pronunciation lexicon entries found in the text when the job was created (src/lexicon/). */
  lexicon?: LexiconEntry[];
}

/** Everything the engine needs to transcribe one STT job; paths are absolute. */
export interface SttTask {
  kind: 'stt';
  inputPath: string;
  /** Folder for the transcript and intermediate files of this job. */
  workDir: string;
  modelPath: string;
  /** `parakeet` when the job's model is a Parakeet model (the engine checks the file itself too). */
  recognizer?: 'parakeet';
  options: SttOptions;
  /** What whisper takes beyond the Local API's options (the OpenAI door's prompt, task and temperature). */
  whisper?: WhisperHints;
}

/** whisper.cpp decoding hints that the STT request of the contract does not carry. */
export interface WhisperHints {
  /** Initial prompt: spellings of names and jargon, the style of the text before. */
  prompt?: string;
  /** Translate into English instead of transcribing. */
  translate?: boolean;
  /** Sampling temperature; 0 is greedy decoding. */
  temperature?: number;
}

/** A piece of the transcript as whisper recognized it, in seconds of the original media. */
export interface RecognizedSegment {
  start: number;
  end: number;
  text: string;
}

/**
 * Finds where speech starts and ends in a media file with Silero VAD: not a job (no store record, no
 * queue), a short task the editor runs directly, e.g. to snap subtitle timing to speech.
 */
export interface SpeechRegionsTask {
  kind: 'speech-regions';
  inputPath: string;
  /** The Silero VAD model in whisper.cpp format. */
  vadModelPath: string;
}

/** The stretches of speech of a media file, in seconds from its start, in time order. */
export interface SpeechRegionsResult {
  durationSeconds: number;
  regions: Array<{ start: number; end: number }>;
}

/**
 * An STT job that aligns a script or subtitle file to the media instead of recognizing it (no speech
 * recognition model needed): src/engine/align/.
 */
export interface AlignTask {
  kind: 'align';
  inputPath: string;
  /** The script (txt, md) or subtitles (srt, vtt) whose text is timed. */
  scriptPath: string;
  scriptFormat: ScriptFormat;
  workDir: string;
  /** `language` says which espeak-ng voice speaks the script (`auto`: English); crop as for STT. */
  options: SttOptions;
  /** The Silero VAD model in whisper.cpp format, when one is installed: it measures the noise floor. */
  vadModelPath: string | null;
}

/** What the job service queues: a TTS or STT job's task. */
export type JobTask = TtsTask | SttTask | AlignTask;

export type EngineTask = JobTask | SpeechRegionsTask | WaveformTask | SpeakTask;

/** What a task answers: a job's result, speech regions, waveform peaks, or a spoken sentence for a SpeakTask. */
export type EngineResult = JobResult | SpeechRegionsResult | WaveformResult | SpokenSentence;

/** The result a task of type T answers with. */
export type ResultOf<T extends EngineTask> = T extends SpeechRegionsTask
  ? SpeechRegionsResult
  : T extends WaveformTask
    ? WaveformResult
    : T extends SpeakTask
      ? SpokenSentence
      : JobResult;

/**
 * Not a job: the waveform peaks of a media file for the editor's timeline (src/engine/media/waveform-task.ts),
 * cached in `<dataDir>/waveforms/`.
 */
export interface WaveformTask {
  kind: 'waveform';
  mediaPath: string;
  dataDir: string;
  bucketsPerSecond: number;
}

export interface WaveformResult {
  /** The cache file holding the peaks (src/engine/media/waveform-file.ts). */
  peaksPath: string;
  buckets: number;
  bucketsPerSecond: number;
  durationSeconds: number;
  /** Whether the peaks were already cached (nothing was decoded). */
  cached: boolean;
  /** The engine process's peak resident memory so far, in bytes. */
  engineMaxRssBytes: number;
}

/**
 * One sentence for Read Aloud: spoken at once and answered with its samples; no job, no file. The editor
 * sends the next sentence while the last one plays.
 */
export interface SpeakTask {
  kind: 'speak';
  text: string;
  voice: TtsVoiceRef;
  /** The speaking rate factor, 0.5–2 as the API's `speed`. */
  speed: number;
  lexicon?: LexiconEntry[];
}

/** Where the engine started saying a word: offsets in the task's text, time from the start of the audio. */
export interface SpokenWord {
  start: number;
  end: number;
  startSeconds: number;
}

/** The answer to a SpeakTask. */
export interface SpokenSentence {
  sampleRate: number;
  /** Mono 16-bit little-endian PCM, base64. */
  pcm: string;
  durationSeconds: number;
  /** The engine's own word times (espeak-ng); null when the engine does not report them. */
  words: SpokenWord[] | null;
  /** Milliseconds the engine took to make its first samples, and all of them (the task's own time, no IPC). */
  firstSamplesMs: number;
  synthesisMs: number;
}


export type ParentMessage = { type: 'run'; jobId: string; task: EngineTask };

export type ChildMessage =
  | { type: 'ready'; pid: number }
  | { type: 'progress'; jobId: string; phase: EnginePhase; progress: number }
  | { type: 'segments'; jobId: string; segments: RecognizedSegment[] }
  | { type: 'result'; jobId: string; backend: string; result: EngineResult }
  | { type: 'failed'; jobId: string; message: string };

/** The job-level reporter the engine-side code receives: `progress` is 0–100 over the whole job. */
export interface ProgressReporter {
  (phase: EnginePhase, progress: number): void;
  /** STT: segments as whisper recognizes them, before the job ends. */
  segments?(segments: RecognizedSegment[]): void;
}

export interface TaskOutcome<R extends EngineResult = JobResult> {
  backend: string;
  result: R;
}

/** The `backend` of an STT job that whisper.cpp runs. */
export const STT_BACKEND = 'whisper.cpp';

/** The `backend` of an alignment job: the script spoken by espeak-ng, matched to the media by dynamic time warping. */
export const ALIGN_BACKEND = 'espeak-ng-dtw';

/** The `backend` of a speech-regions task. */
export const VAD_BACKEND = 'silero-vad';

/** The `backend` of an STT job that Parakeet runs: the engine and its model file, as there are several. */
export const parakeetBackend = (modelName: string): string => `parakeet (${modelName})`;

/**
 * The engine that runs a task, known before it starts: a TTS voice names its synthesizer, which is its
 * backend; an STT job's recognizer was read from its model file when the job was created. No file is read
 * here: the server calls this, and its event loop must never wait on a file.
 */
export const taskBackend = (task: EngineTask): string => {
  if (task.kind === 'tts') return task.voice.engine;
  if (task.kind === 'speech-regions') return VAD_BACKEND;
  if (task.kind === 'waveform') return 'ffmpeg';
  if (task.kind === 'speak') return task.voice.engine;
  if (task.kind === 'align') return ALIGN_BACKEND;
  return task.recognizer === 'parakeet' ? parakeetBackend(path.basename(task.modelPath)) : STT_BACKEND;
};

/** An error whose message is already a sentence for the user (no stack, no internals). */
export class UserFacingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserFacingError';
  }
}
