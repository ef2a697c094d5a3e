/**
 * The engine's own check of every task it receives, whatever door or store record the task came through:
 * the API's schema and limits (the contract's validators, not a copy of them), the paths the task will
 * touch, its voice, and the length of a narration's timeline. A task that fails the check fails its job
 * with a sentence before any work starts, never with a crash or a job that runs away with memory or disk.
 */
import { open, readFile } from 'node:fs/promises';
import { basename, isAbsolute } from 'node:path';
import { MAX_TTS_TEXT, openApiDocument, TTS_SPEED } from '../contract/openapi';
import { openAiTranscriptionFields } from '../contract/openapi-openai';
import type { LexiconEntry, SttOptions, TtsRequest } from '../contract/types';
import { validateLexicon } from '../lexicon/lexicon-validation';
import { compileValidators, type Validators } from '../contract/validation';
import type { TtsEngineName, TtsVoiceRef } from '../voices/voice-ref';
import { SCRIPT_FORMATS } from '../subtitles/script';
import {
  UserFacingError,
  type AlignTask,
  type BookTask,
  type EmbedSubtitlesTask,
  type EngineTask,
  type ExtraOutputFormat,
  type LiveWindowTask,
  type LlmGenerateTask,
  type SpeakerEmbeddingTask,
  type SpeakTask,
  type ShotChangesTask,
  type SpeechRegionsTask,
  type SsmlTaskMarkup,
  type SttTask,
  type TranslateTask,
  type TtsTask,
  type WaveformTask,
  type WhisperHints,
  type DubTask,
  type CastAttributeTask,
  type VoiceReferenceTask,
} from '../engine-api/protocol';
import { narrationTimelineProblem } from '../subtitles/timeline-limit';
import { readCues } from './tts/read-cues';

type Fields = Record<string, unknown>;

/** Every engine the voice of a task may name (a Record, so the type keeps this list complete). */
const ENGINES: Record<TtsEngineName, true> = { 'espeak-ng': true, flite: true, 'svox-pico': true, 'sherpa-onnx': true };
/** UTF-8 takes at most 4 bytes a character: reading this much is enough to see a text is too long. */
const MAX_TEXT_BYTES = MAX_TTS_TEXT * 4 + 4;
/** The OpenAI door's limit on whisper's initial prompt. */
const MAX_WHISPER_PROMPT = openAiTranscriptionFields.properties.prompt.maxLength;

let validators: Validators | undefined;
const contract = (): Validators => (validators ??= compileValidators());

/** The request fields that have a default: a task carries every one of them, already filled in. */
function filledFields(schema: { properties: Record<string, object> }): string[] {
  return Object.entries(schema.properties)
    .filter(([, property]) => 'default' in property)
    .map(([name]) => name);
}

function invalid(detail: string): UserFacingError {
  return new UserFacingError(
    `The job cannot run: ${detail}. It may have been changed after it was created; create it again.`,
  );
}

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The task as the engine will run it (options as the contract reads them), or a sentence for the user. */
export async function checkTask(
  task: unknown,
): Promise<
  Exclude<
    EngineTask,
    | WaveformTask
    | BookTask
    | EmbedSubtitlesTask
    | ShotChangesTask
    | TranslateTask
    | LlmGenerateTask
    | DubTask
    | CastAttributeTask
    | VoiceReferenceTask
  >
> {
  if (!isObject(task)) throw invalid('the engine received no task');
  if (task.kind === 'tts') return checkTtsTask(task);
  if (task.kind === 'stt') return checkSttTask(task);
  if (task.kind === 'speech-regions') return checkSpeechRegionsTask(task);
  if (task.kind === 'speak') return checkSpeakTask(task);
  if (task.kind === 'align') return checkAlignTask(task);
  if (task.kind === 'live-window') return checkLiveWindowTask(task);
  if (task.kind === 'speaker-embedding') return checkSpeakerEmbeddingTask(task);
  throw invalid(
    `its kind ${JSON.stringify(task.kind)} is neither tts nor stt nor speech-regions, nor align nor a Read Aloud speak task, nor a live window`,
  );
}

function checkSpeakerEmbeddingTask(task: Fields): SpeakerEmbeddingTask {
  const { ranges } = task;
  if (
    ranges !== undefined &&
    (!Array.isArray(ranges) ||
      ranges.length > 10_000 ||
      !ranges.every(
        (range: { start: number; end: number } | null) =>
          typeof range === 'object' &&
          range !== null &&
          Number.isFinite(range.start) &&
          Number.isFinite(range.end) &&
          range.start >= 0 &&
          range.end > range.start,
      ))
  ) {
    throw invalid('ranges is not a list of { start, end } seconds with start < end');
  }
  return {
    kind: 'speaker-embedding',
    inputPath: absolutePath(task, 'inputPath'),
    modelsDir: absolutePath(task, 'modelsDir'),
    ...(ranges
      ? { ranges: (ranges as Array<{ start: number; end: number }>).map(({ start, end }) => ({ start, end })) }
      : {}),
  };
}

/** A live transcription window: its paths, a language code, a threshold in 0–1, a prompt within the OpenAI door's limit. */
function checkLiveWindowTask(task: Fields): LiveWindowTask {
  const { language, decode, vadThreshold, prompt, preview, denoise, speechFrom, decodeFrom, maxTokens } = task;
  const seconds = (value: unknown, name: string): number | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !(value >= 0 && value <= 3600))
      throw invalid(`${name} is not a number of seconds from 0 to 3600`);
    return value;
  };
  const from = { speechFrom: seconds(speechFrom, 'speechFrom'), decodeFrom: seconds(decodeFrom, 'decodeFrom') };
  if (
    maxTokens !== undefined &&
    (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1 || maxTokens > 10_000)
  )
    throw invalid('maxTokens is not a whole number from 1 to 10000');
  if (typeof language !== 'string' || !/^[A-Za-z0-9-]{1,35}$/.test(language))
    throw invalid('language is not a language code');
  if (typeof decode !== 'boolean') throw invalid('decode is not true or false');
  if (typeof vadThreshold !== 'number' || !(vadThreshold >= 0 && vadThreshold <= 1))
    throw invalid('vadThreshold is not a number from 0 to 1');
  if (prompt !== undefined && (typeof prompt !== 'string' || prompt.length > MAX_WHISPER_PROMPT))
    throw invalid(`prompt is not a text of at most ${MAX_WHISPER_PROMPT} characters`);
  return {
    kind: 'live-window',
    pcmPath: absolutePath(task, 'pcmPath'),
    modelPath: absolutePath(task, 'modelPath'),
    language,
    decode,
    vadThreshold,
    ...(prompt ? { prompt } : {}),
    ...(optionalBoolean(preview, 'preview') ? { preview: true } : {}),
    ...(optionalBoolean(denoise, 'denoise') ? { denoise: true } : {}),
    ...(from.speechFrom !== undefined ? { speechFrom: from.speechFrom } : {}),
    ...(from.decodeFrom !== undefined ? { decodeFrom: from.decodeFrom } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
  };
}

function checkSpeechRegionsTask(task: Fields): SpeechRegionsTask {
  return {
    kind: 'speech-regions',
    inputPath: absolutePath(task, 'inputPath'),
    vadModelPath: absolutePath(task, 'vadModelPath'),
  };
}

async function checkTtsTask(task: Fields): Promise<TtsTask> {
  const textPath = absolutePath(task, 'textPath');
  const outputPath = absolutePath(task, 'outputPath');
  const options = optionsOf(task, filledFields(openApiDocument.components.schemas.TtsRequest));
  if ('text' in options) throw invalid('options.text: the text belongs in its own file');
  const voice = voiceOf(task.voice, 'voice');
  const text = await readText(textPath);
  const checked = contract().ttsRequest({ ...options, text });
  if (!checked.ok) throw invalid(`its options are not valid (${checked.message})`);
  const { text: _text, ...valid } = checked.value;
  checkFinite(valid);
  if (valid.inputFormat !== 'txt') {
    const problem = narrationTimelineProblem(readCues(text, valid.inputFormat));
    if (problem) throw new UserFacingError(`The narration is too long: ${problem}.`);
  }
  const lexicon =
    task.lexiconPath !== undefined
      ? lexiconOf(await readJson(absolutePath(task, 'lexiconPath')))
      : lexiconOf(task.lexicon);
  const live = optionalBoolean(task.live, 'live');
  const encodeAs = extraOutputFormatOf(task.encodeAs);
  const ssml = task.ssml === undefined ? undefined : ssmlMarkupOf(task.ssml);
  return {
    kind: 'tts',
    textPath,
    outputPath,
    options: valid satisfies Omit<TtsRequest, 'text'>,
    voice,
    ...(lexicon ? { lexicon } : {}),
    ...(live ? { live: true } : {}),
    ...(encodeAs ? { encodeAs } : {}),
    ...(ssml ? { ssml } : {}),
  };
}

/** An SSML task's resolved voices and confined audio files. */
function ssmlMarkupOf(value: unknown): SsmlTaskMarkup {
  if (!isObject(value) || !isObject(value.voices) || !isObject(value.audio))
    throw invalid('ssml is not a set of voices and audio files');
  for (const [name, voice] of Object.entries(value.voices)) voiceOf(voice, `ssml.voices.${name}`);
  for (const file of Object.values(value.audio)) {
    if (typeof file !== 'string' || !isAbsolute(file) || file.includes('\0'))
      throw invalid('ssml.audio holds a path that is not absolute');
  }
  return value as unknown as SsmlTaskMarkup;
}

/** The engine's own output formats beyond the Local API's (TtsTask.encodeAs), or none. */
function extraOutputFormatOf(value: unknown): ExtraOutputFormat | undefined {
  if (value === undefined) return undefined;
  if (value === 'opus' || value === 'pcm' || value === 'm4a') return value;
  throw invalid(`encodeAs: ${JSON.stringify(value)} is not opus, pcm or m4a`);
}

/** A Read Aloud sentence: text within the API's limit, a voice, and a speed the API would accept. */
function checkSpeakTask(task: Fields): SpeakTask {
  if (typeof task.text !== 'string' || task.text.trim() === '' || task.text.length > MAX_TTS_TEXT)
    throw invalid(`text is not a text of 1 to ${MAX_TTS_TEXT} characters`);
  const speed = task.speed;
  if (typeof speed !== 'number' || !Number.isFinite(speed) || speed < TTS_SPEED.min || speed > TTS_SPEED.max)
    throw invalid(`speed is not a number from ${TTS_SPEED.min} to ${TTS_SPEED.max}`);
  const lexicon = lexiconOf(task.lexicon);
  const ssml = task.ssml === undefined ? undefined : ssmlPartOf(task.ssml);
  return {
    kind: 'speak',
    text: task.text,
    voice: voiceOf(task.voice, 'voice'),
    speed,
    ...(lexicon ? { lexicon } : {}),
    ...(ssml ? { ssml } : {}),
  };
}

/** A Read Aloud SSML part: its source within the text limit, a step range, and admitted markup. */
function ssmlPartOf(value: unknown): NonNullable<SpeakTask['ssml']> {
  if (!isObject(value) || typeof value.source !== 'string' || value.source.length > MAX_TTS_TEXT)
    throw invalid(`ssml.source is not a text of at most ${MAX_TTS_TEXT} characters`);
  const { from, to } = value;
  if (!Number.isInteger(from) || !Number.isInteger(to) || (from as number) < 0 || (to as number) <= (from as number))
    throw invalid('ssml.from and ssml.to are not a range of steps');
  return { source: value.source, from: from as number, to: to as number, markup: ssmlMarkupOf(value.markup) };
}

/** The task's lexicon entries, checked as PUT /lexicon checks them. */
function lexiconOf(value: unknown): LexiconEntry[] | undefined {
  if (value === undefined) return undefined;
  const checked = validateLexicon({ entries: value });
  if (!checked.ok) throw invalid(`its lexicon is not valid (${checked.message})`);
  return checked.value.entries;
}

async function checkSttTask(task: Fields): Promise<SttTask> {
  const inputPath = absolutePath(task, 'inputPath');
  const workDir = absolutePath(task, 'workDir');
  const modelPath = absolutePath(task, 'modelPath');
  const options = optionsOf(task, filledFields(openApiDocument.components.schemas.SttRequest));
  // The form-field validator: it reads the options as the API read them from the multipart form.
  const checked = contract().sttOptions(options as Record<string, string>);
  if (!checked.ok) throw invalid(`its options are not valid (${checked.message})`);
  checkFinite(checked.value);
  const whisper = whisperHintsOf(task.whisper);
  return {
    kind: 'stt',
    inputPath,
    workDir,
    modelPath,
    options: checked.value satisfies SttOptions,
    ...(whisper ? { whisper } : {}),
  };
}

/** An alignment: its files, a script format it reads, and the options an alignment request can set. */
function checkAlignTask(task: Fields): AlignTask {
  const inputPath = absolutePath(task, 'inputPath');
  const scriptPath = absolutePath(task, 'scriptPath');
  const workDir = absolutePath(task, 'workDir');
  const vadModelPath = task.vadModelPath === null ? null : absolutePath(task, 'vadModelPath');
  const scriptFormat = SCRIPT_FORMATS.find((format) => format === task.scriptFormat);
  if (!scriptFormat) throw invalid(`scriptFormat is not one of ${SCRIPT_FORMATS.join(', ')}`);
  const { language, cropStartSeconds, cropEndSeconds, ...rest } = optionsOf(task, ['language']);
  const fields = Object.fromEntries(
    Object.entries({ language, cropStartSeconds, cropEndSeconds }).filter(([, value]) => value !== undefined),
  );
  const checked = contract().alignFields(fields as Record<string, string>);
  if (!checked.ok) throw invalid(`its options are not valid (${checked.message})`);
  checkFinite(checked.value);
  const options = { ...rest, ...checked.value, language: checked.value.language ?? 'auto' } as SttOptions;
  const recognizerModelPath =
    task.recognizerModelPath === undefined || task.recognizerModelPath === null
      ? null
      : absolutePath(task, 'recognizerModelPath');
  return {
    kind: 'align',
    inputPath,
    scriptPath,
    scriptFormat,
    workDir,
    options,
    vadModelPath,
    ...(recognizerModelPath ? { recognizerModelPath } : {}),
  };
}

function optionalBoolean(value: unknown, where: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalid(`${where} is not true or false`);
  return value;
}

/** The OpenAI door's whisper hints (prompt, translate, temperature), within the limits its schema set. */
function whisperHintsOf(value: unknown): WhisperHints | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) throw invalid('whisper is not a set of whisper hints');
  const hints: WhisperHints = {};
  const { prompt, translate, temperature } = value;
  if (prompt !== undefined) {
    if (typeof prompt !== 'string' || prompt.length > MAX_WHISPER_PROMPT)
      throw invalid(`whisper.prompt is not a text of at most ${MAX_WHISPER_PROMPT} characters`);
    hints.prompt = prompt;
  }
  const translated = optionalBoolean(translate, 'whisper.translate');
  if (translated !== undefined) hints.translate = translated;
  if (temperature !== undefined) {
    if (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature < 0 || temperature > 1) {
      throw invalid('whisper.temperature is not a number from 0 to 1');
    }
    hints.temperature = temperature;
  }
  return hints;
}

function absolutePath(task: Fields, name: string): string {
  const value = task[name];
  if (typeof value !== 'string' || !isAbsolute(value) || value.includes('\0'))
    throw invalid(`${name} is not an absolute path`);
  return value;
}

/** The task's options, with every defaulted field present (a missing one would be filled in silently). */
function optionsOf(task: Fields, required: readonly string[]): Fields {
  const options = task.options;
  if (!isObject(options)) throw invalid('it has no options');
  const missing = required.find((name) => !(name in options));
  if (missing) throw invalid(`its options are not valid (${missing}: is missing)`);
  return { ...options };
}

/** JSON has no Infinity, but a form field "Infinity" becomes one: no option may be infinite or NaN. */
function checkFinite(options: object): void {
  for (const [name, value] of Object.entries(options)) {
    if (typeof value === 'number' && !Number.isFinite(value))
      throw invalid(`its options are not valid (${name}: must be a finite number)`);
  }
}

function voiceOf(value: unknown, where: string): TtsVoiceRef {
  if (!isObject(value)) throw invalid(`${where} is missing`);
  if (typeof value.engine !== 'string' || !Object.hasOwn(ENGINES, value.engine)) {
    throw invalid(`${where}.engine ${JSON.stringify(value.engine)} is not a speech engine this version knows`);
  }
  for (const name of ['engineVoiceId', 'languageCode'] as const) {
    if (typeof value[name] !== 'string' || value[name] === '') throw invalid(`${where}.${name} is missing`);
  }
  if (value.speakers !== undefined) {
    if (!isObject(value.speakers)) throw invalid(`${where}.speakers is not a list of voices by speaker`);
    for (const [speaker, other] of Object.entries(value.speakers)) voiceOf(other, `${where}.speakers.${speaker}`);
  }
  return value as unknown as TtsVoiceRef;
}

/** The text file's content; a file too long for the API is read only far enough to tell. */
/** A JSON file the job side wrote (a job's lexicon entries); a missing or torn one is an invalid task. */
async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    throw invalid(`its file ${basename(file)} is missing or not JSON`);
  }
}

async function readText(textPath: string): Promise<string> {
  const handle = await open(textPath, 'r').catch(() => {
    throw invalid('its text file is missing');
  });
  try {
    const bytes = Buffer.alloc(MAX_TEXT_BYTES);
    let length = 0;
    for (;;) {
      // No file position: the text may come through a pipe (a FIFO), which cannot seek.
      const { bytesRead } = await handle.read(bytes, length, bytes.length - length, null);
      if (bytesRead === 0 || (length += bytesRead) === bytes.length) break;
    }
    return bytes.toString('utf8', 0, length);
  } finally {
    await handle.close();
  }
}
