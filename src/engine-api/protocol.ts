/**
 * The typed messages between the server (parent) and the engine worker (child process, over IPC).
 * The parent sends `run`; the child answers with any number of `progress` messages and then exactly one
 * `result` or `failed` for that job. Cancel is not a message: the parent ends the child process.
 */
import path from 'node:path';
import type { BookResult } from '../audiobook/book-plan';
import type { JobResult, LexiconEntry, SttOptions, TtsRequest } from '../contract/types';
import type { ScriptFormat } from '../subtitles/script';
import type { SubtitleStyle } from '../contract/subtitle-style';
import type { FlaggedCue } from '../translate/translate-cues';
import type { Attribution, QuoteInContext } from '../cast/attribution-prompt';

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
  | 'encoding'
  | 'translating'
  | 'casting';

export type {
  PicoVoiceModel,
  SherpaModelKind,
  SherpaVoiceModel,
  TtsEngineName,
  TtsVoiceRef,
} from '../voices/voice-ref';
import type { TtsVoiceRef } from '../voices/voice-ref';
import type { SsmlTaskMarkup } from '../text/ssml/ssml-markup';

export type { SsmlTaskMarkup };

/**
 * Formats the engine encodes beyond the Local API's output formats, for doors whose protocol has them (the
 * OpenAI door's `opus` and `pcm`: Ogg Opus, and headerless 16-bit little-endian samples); never part of a
 * Local API request body.
 */
export type ExtraOutputFormat = 'opus' | 'pcm' | 'm4a';

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
  /** Or a JSON file of them (a job's folder keeps them there); the engine reads it into `lexicon`. */
  lexiconPath?: string;
  /** The text is SSML (src/text/ssml/); never set by the Local API's POST /tts/jobs. */
  ssml?: SsmlTaskMarkup;
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
  /**
   * No fallback to sampling at higher temperatures when a decode looks poor: live partial text is a preview,
   * and this keeps it quick and leaves whisper's sampling state to the decodes that count.
   */
  noFallback?: boolean;
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
 * An audiobook export (src/engine/book/): the plan (`BookPlan`, written by the job service) names every
 * paragraph, voice and option; paragraphs and chapters come from the re-export cache in `dataDir` when they can.
 */
export interface BookTask {
  kind: 'book';
  planPath: string;
  /** The job's folder: paragraphs are synthesized here, beside the cache, and moved into it. */
  workDir: string;
  dataDir: string;
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
  /** A whisper model, when one is installed: its word times refine the aligned boundaries (refine-boundaries.ts). */
  recognizerModelPath?: string | null;
}

/**
 * Not a job: one look at a live transcription session's audio (src/realtime/): where the speech is (for turn
 * detection) and, when asked, what was said, decoded the way an STT job decodes a file (VAD, then the
 * recognizer), so a committed utterance reads as the same audio's file transcript does.
 */
export interface LiveWindowTask {
  kind: 'live-window';
  /** Raw 16 kHz mono signed 16-bit little-endian samples (a temporary file of the session). */
  pcmPath: string;
  modelPath: string;
  /** A whisper language code, or `auto`. */
  language: string;
  /** Whether to recognize the words too, or only find the speech. */
  decode: boolean;
  /** A partial look: decoded without temperature fallback (see WhisperHints.noFallback). */
  preview?: boolean;
  /** Silero's speech probability threshold for turn detection, 0–1 (whisper.cpp's default is 0.5). */
  vadThreshold: number;
  /** whisper's initial prompt (the session's `transcription.prompt`). */
  prompt?: string;
  /** Run GTCRN speech enhancement on the window before VAD and recognition (the session's noise reduction). */
  denoise?: boolean;
  /** Turn detection's VAD looks only at the window from this many seconds on (the audio it has not seen, and a little before). */
  speechFrom?: number;
  /** A partial decode recognizes only the window from this many seconds on (the audio since its trim point). */
  decodeFrom?: number;
  /** A partial decode keeps at most this many recognized tokens (a cap by the audio's length; see src/realtime/partial-text.ts). */
  maxTokens?: number;
}

/** A recognized word of a live window, in seconds from the window's start. */
export interface LiveWord {
  start: number;
  end: number;
  text: string;
}

/** The answer to a LiveWindowTask. */
export interface LiveWindowResult {
  durationSeconds: number;
  /** The stretches of speech (seconds of the window, from `speechFrom` on) at the task's threshold; null without a VAD model. */
  speech: Array<{ start: number; end: number }> | null;
  /** The recognized text (of the window from `decodeFrom` on); empty when `decode` was false or nothing was said. */
  text: string;
  words: LiveWord[];
  language: string;
}

/** Not a job: the voice of an enrollment clip (`speakers add`), from its speech only. */
export interface SpeakerEmbeddingTask {
  kind: 'speaker-embedding';
  inputPath: string;
  /** `<data-dir>/models`: the diarization embedding model and the VAD model are found there. */
  modelsDir: string;
  /** Only these stretches of the input, in seconds (one speaker's segments of a transcript); all of it when absent. */
  ranges?: Array<{ start: number; end: number }>;
}

export interface SpeakerEmbeddingResult {
  embedding: number[];
  /** The embedding model's file name. */
  model: string;
  speechSeconds: number;
}

/**
 * Not a job: a recording made into a cloning reference (src/engine/voice/): speech trimmed, loudness
 * normalized, written to `outputPath` as 16-bit mono WAV; its words recognized with the model at
 * `recognizerModelPath` unless `text` is given.
 */
export interface VoiceReferenceTask {
  kind: 'voice-reference';
  inputPath: string;
  outputPath: string;
  /** `<data-dir>/models`: the VAD model is found there. */
  modelsDir: string;
  text?: string;
  recognizerModelPath?: string;
  /** The recording's language when known; recognition detects it otherwise. */
  language?: string;
}

export interface VoiceReferenceResult {
  /** The length of the trimmed reference. */
  speechSeconds: number;
  /** Where the kept speech starts in the recording. */
  trimmedStartSeconds: number;
  /** What the reference says: the given text, or the recognized one. */
  text: string;
  /** The recognized (or given) language; null when nothing told it. */
  language: string | null;
}

/**
 * A subtitle file translated by the language model (src/engine/llm/): cue by cue, times kept, written to
 * `outputPath` (through `<outputPath>.partial`).
 */
export interface TranslateTask {
  kind: 'translate';
  /** The subtitle file, a copy in the job's folder. */
  inputPath: string;
  format: 'srt' | 'vtt';
  outputPath: string;
  /** The GGUF language model. */
  modelPath: string;
  /** BCP 47 tag of the language to translate into, and of the source when known. */
  to: string;
  from?: string;
  style: SubtitleStyle;
}

/** The answer to a TranslateTask. */
export interface TranslateResult {
  outputPath: string;
  cues: number;
  /** Cues (from 1) the model shortened to fit the reading speed. */
  shortened: number[];
  /** Cues still reading faster than the style allows. */
  flagged: FlaggedCue[];
  tokens: number;
  tokensPerSecond: number;
  /** The model's file name. */
  model: string;
}

export type { DubTask, DubResult } from './dub-types';
import type { DubTask, DubResult } from './dub-types';

/**
 * Not a job: who speaks each quoted passage of a book (src/engine/llm/run-attribute.ts), one answer of the
 * language model per quote under the attribution grammar (src/cast/attribution-prompt.ts).
 */
export interface CastAttributeTask {
  kind: 'cast-attribute';
  modelPath: string;
  quotes: QuoteInContext[];
  /** Speakers already in the cast, offered so one character keeps one name. */
  known: string[];
}

export interface CastAttributeResult {
  /** One for each quote, in order. */
  attributions: Attribution[];
  tokens: number;
}

/** Not a job: one answer of the language model under a JSON-schema grammar, measured (the bench). */
export interface LlmGenerateTask {
  kind: 'llm-generate';
  modelPath: string;
  prompt: { system: string; user: string };
  schema: object;
  maxTokens: number;
}

export interface LlmGenerateResult {
  /** JSON text following the schema. */
  text: string;
  tokens: number;
  /** Generation time inside the engine (no IPC, no model load). */
  seconds: number;
  engineMaxRssBytes: number;
}

/** Every task the engine runs; a stored job's task is one of them (its kind's module in src/jobs/kinds/ says which). */
export type EngineTask =
  | TtsTask
  | SttTask
  | BookTask
  | AlignTask
  | TranslateTask
  | DubTask
  | SpeechRegionsTask
  | WaveformTask
  | ShotChangesTask
  | SpeakTask
  | LiveWindowTask
  | SpeakerEmbeddingTask
  | EmbedSubtitlesTask
  | LlmGenerateTask
  | CastAttributeTask
  | VoiceReferenceTask;

/** What a task answers: a job's result, speech regions, waveform peaks, a spoken sentence, a live window or a model's answer. */
export type EngineResult =
  | JobResult
  | BookResult
  | TranslateResult
  | DubResult
  | SpeechRegionsResult
  | WaveformResult
  | ShotChangesResult
  | SpokenSentence
  | LiveWindowResult
  | SpeakerEmbeddingResult
  | EmbedSubtitlesResult
  | LlmGenerateResult
  | CastAttributeResult
  | VoiceReferenceResult;

/** The result a task of type T answers with. */
export type ResultOf<T extends EngineTask> = T extends BookTask
  ? BookResult
  : T extends DubTask
    ? DubResult
    : T extends TranslateTask
      ? TranslateResult
      : T extends LlmGenerateTask
        ? LlmGenerateResult
        : T extends CastAttributeTask
          ? CastAttributeResult
          : T extends SpeechRegionsTask
            ? SpeechRegionsResult
            : T extends ShotChangesTask
              ? ShotChangesResult
              : T extends WaveformTask
                ? WaveformResult
                : T extends SpeakTask
                  ? SpokenSentence
                  : T extends LiveWindowTask
                    ? LiveWindowResult
                    : T extends SpeakerEmbeddingTask
                      ? SpeakerEmbeddingResult
                      : T extends EmbedSubtitlesTask
                        ? EmbedSubtitlesResult
                        : T extends VoiceReferenceTask
                          ? VoiceReferenceResult
                          : JobResult;

/**
 * An `embed` job's task (src/jobs/kinds/embed.ts): a copy of a video with a subtitle file as a soft track
 * (src/engine/media/embed-subtitles.ts); the video and audio are copied, not re-encoded.
 */
export interface EmbedSubtitlesTask {
  kind: 'embed-subtitles';
  videoPath: string;
  subtitlesPath: string;
  /** Where the copy goes; its extension picks the container and so the subtitle codec. */
  outputPath: string;
  /** The track's language, ISO 639-2 (`eng`), or `und`. */
  language: string;
  /** The track's title; by default the language's English name (none for `und`). */
  title?: string;
  /** Leave out the video's subtitle tracks of the same language (by default every track is kept). */
  replaceSameLanguage?: boolean;
}

/** A subtitle track of the video, as the embed result names it. */
export interface SubtitleTrackSummary {
  codec: string;
  /** ISO 639-2, or `und` when untagged. */
  language: string;
  title?: string;
}

export interface EmbedSubtitlesResult {
  outputPath: string;
  /** The subtitle track's codec as ffprobe names it: `mov_text`, `webvtt`, `subrip` or `ass`. */
  subtitleCodec: string;
  /** The cues in the written track (its packets, without MP4's empty ones between cues). */
  subtitleCues: number;
  language: string;
  title?: string;
  /** The new track's place among the copy's subtitle tracks, from 0 (after the video's own). */
  subtitleTrack: number;
  /** The video's subtitle tracks carried into the copy, in order, before the new one. */
  keptTracks: SubtitleTrackSummary[];
  /** Tracks of the same language left out because replaceSameLanguage asked for it. */
  replacedTracks: SubtitleTrackSummary[];
  /** Picture tracks the copy's container cannot hold (e.g. PGS in MP4), left out. */
  droppedTracks: SubtitleTrackSummary[];
}

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
  /** The cache file holding the peaks (src/audio/waveform-file.ts). */
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
 * Not a job: where the picture of a video cuts to another shot (ffmpeg's scene score above `threshold`), for
 * the editor's shot-change check and timeline (src/engine/media/shot-changes-task.ts); the job core caches it.
 */
export interface ShotChangesTask {
  kind: 'shot-changes';
  mediaPath: string;
  /** ffmpeg's scene score a frame must exceed, 0–1. */
  threshold: number;
}

export interface ShotChangesResult {
  durationSeconds: number;
  /** The video's frame rate, to count frames around a change. */
  framesPerSecond: number;
  /** The time of the first frame of each new shot, in seconds, in order. */
  changes: number[];
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
  /**
   * A part of SSML (src/text/ssml/ssml-reading.ts): steps `[from, to)` of `source`'s plan are spoken, with the
   * voices and audio files the editor admitted; `text` is then the part's text as partText gives it.
   */
  ssml?: { source: string; from: number; to: number; markup: SsmlTaskMarkup };
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
  /** For an SSML part: what the engine could not honour, keyed like a job's `ignoredOptions` (`ssml phoneme`). */
  ignored?: Record<string, string>;
}

/**
 * `yield` asks the running task to stop early and leave its process alive for interactive speech: a task of a
 * kind in YIELDING_KINDS answers `yielded` within moments and is run again later; any other is ended.
 */
export type ParentMessage =
  | { type: 'run'; jobId: string; task: EngineTask }
  | { type: 'yield'; jobId: string }
  /** Load now what the first task would otherwise wait for (a process kept ready while idle). */
  | { type: 'warm' };

export type ChildMessage =
  | { type: 'ready'; pid: number }
  | { type: 'progress'; jobId: string; phase: EnginePhase; progress: number }
  | { type: 'segments'; jobId: string; segments: RecognizedSegment[] }
  | { type: 'result'; jobId: string; backend: string; result: EngineResult }
  | { type: 'failed'; jobId: string; message: string }
  /** The task stopped because it was asked to yield: the process is idle again and the task may be run again. */
  | { type: 'yielded'; jobId: string };

/** The kinds of task that stop when asked to yield (they check between chunks of their work): the timeline's analysis. */
export const YIELDING_KINDS: ReadonlySet<EngineTask['kind']> = new Set(['waveform', 'speech-regions', 'shot-changes']);

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

/** The `backend` of language model work (translation). */
export const LLM_BACKEND = 'llama.cpp';

/** The `backend` of a dub: recognized, translated, spoken and mixed by several engines in turn. */
export const DUB_BACKEND = 'dub';

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
  if (task.kind === 'waveform' || task.kind === 'shot-changes' || task.kind === 'embed-subtitles') return 'ffmpeg';
  if (task.kind === 'speak') return task.voice.engine;
  if (task.kind === 'book') return 'audiobook';
  if (task.kind === 'live-window') return STT_BACKEND;
  if (task.kind === 'speaker-embedding') return 'sherpa-onnx';
  if (task.kind === 'voice-reference') return VAD_BACKEND;
  if (task.kind === 'align') return ALIGN_BACKEND;
  if (task.kind === 'translate' || task.kind === 'llm-generate' || task.kind === 'cast-attribute') return LLM_BACKEND;
  if (task.kind === 'dub') return DUB_BACKEND;
  return task.recognizer === 'parakeet' ? parakeetBackend(path.basename(task.modelPath)) : STT_BACKEND;
};

/** Thrown by a task that stopped early because it was asked to yield its process (worker.ts answers `yielded`). */
export class TaskYieldedError extends Error {
  constructor() {
    super('The task gave its engine process to interactive speech.');
    this.name = 'TaskYieldedError';
  }
}

/** Throws TaskYieldedError once `signal` asks the task to yield: called by a yielding task between chunks of its work. */
export function stopIfAskedToYield(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new TaskYieldedError();
}

/** An error whose message is already a sentence for the user (no stack, no internals). */
export class UserFacingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UserFacingError';
  }
}

/**
 * An STT job's own reference voices (the OpenAI door's `known_speaker_names[]` with
 * `known_speaker_references[]`): written in the job's folder as this file beside the clips it names; the
 * engine names a diarized speaker whose voice matches one (src/engine/stt/name-speakers.ts).
 */
export const REFERENCE_SPEAKERS_FILE = 'reference-speakers.json';

export interface ReferenceSpeakers {
  /** Each clip's file name in the job's folder. */
  speakers: Array<{ name: string; file: string }>;
}
