/**
 * Admission: the one place that decides whether a TTS or STT request may run, and with what. Every door
 * (the Local API routes, the editor's commands, the device runner, the relay) calls it and only translates
 * the coded errors it throws (src/contract/errors.ts) into its own way of saying no; no door repeats a rule.
 *
 *   TTS  the request schema; a text with something to speak (not only whitespace, punctuation or emoji); subtitles that can be read (422 naming the
 *        line) and whose last cue ends within MAX_NARRATION_HOURS (422 naming the cue and its line); a voice
 *        of the library (422) that is ready (409 VOICE_NOT_READY), and so is every speaker voice.
 *   STT  the form's schema; a language whisper knows (422); an installed model, whisper.cpp or Parakeet,
 *        that serves the language (409 MODEL_NOT_INSTALLED); diarization needs its models (409) when the
 *        caller asked for it (diarizationEnabled=true, or an exact speakerCount), and is dropped when only
 *        the default asked. A model named by the request (the OpenAI door's `model`) must be installed and
 *        able to honour the request: Parakeet takes no prompt, does not translate, decodes greedily and
 *        covers its own languages, so those are refused with a 422 naming the field, never ignored; with no
 *        model named, a request with whisper-only fields goes to a whisper model.
 */
import { ApiError, invalidRequest } from '../contract/errors';
import type { SttOptions, TtsRequest } from '../contract/types';
import type { Validators } from '../contract/validation';
import type { WhisperHints } from '../engine-api/protocol';
import { toWhisperLanguage } from '../models/whisper-languages';
import { builtinCatalog, type Catalog } from '../models/catalog';
import {
  chooseWhisperModel,
  diarizationModelsInstalled,
  isParakeet,
  listSttModels,
  servesLanguage,
  type InstalledWhisperModel,
  type WhisperModelInfo,
} from '../models/installed-models';
import { parseSubtitles, SubtitleError, type SubtitleFormat } from '../subtitles/parse';
import { cuePastTimelineLimit, MAX_NARRATION_HOURS } from '../subtitles/timeline-limit';
import { formatTimestamp } from '../subtitles/timestamps';
import { hasSomethingToSpeak } from '../text/speakable';
import { speakerVoices, SpeakerVoiceError } from '../voices/speaker-voices';
import { isReadyVoice, type VoiceEntry } from '../voices/voice-entry';
import type { TtsVoiceRef } from '../voices/voice-ref';

/** Where admission looks voices up (the voice library). */
export interface VoiceSource {
  get(id: string): VoiceEntry | undefined;
}

/** A TTS request that may run: validated with its defaults, and the voice the engine speaks it with. */
export interface AdmittedTts {
  request: TtsRequest;
  voice: TtsVoiceRef;
}

/**
 * The rules of a TTS request that need no voice library: the schema, something to speak, readable
 * subtitles within the timeline limit. The relay checks these before it chooses a device.
 */
export function checkTtsRequest(validators: Validators, body: unknown): TtsRequest {
  const request = validTtsRequest(validators, body);
  checkText(request);
  return request;
}

function validTtsRequest(validators: Validators, body: unknown): TtsRequest {
  const checked = validators.ttsRequest(body);
  if (!checked.ok) throw invalidRequest(checked.message);
  return checked.value;
}

function checkText(request: TtsRequest): void {
  if (request.text.trim() === '') throw invalidRequest('text: has nothing to speak, only whitespace');
  if (request.inputFormat !== 'txt') checkSubtitles(request.text, request.inputFormat);
  else if (!hasSomethingToSpeak(request.text)) {
    throw invalidRequest('text: has nothing to speak: no letter, digit or sign a voice reads, only punctuation, emoji, invisible or control characters');
  }
}

function checkSubtitles(text: string, format: SubtitleFormat): void {
  const name = format.toUpperCase();
  let cues;
  try {
    cues = parseSubtitles(text, format);
  } catch (error) {
    if (error instanceof SubtitleError) throw invalidRequest(`text: not valid ${name}, ${error.message}`);
    throw error;
  }
  const late = cuePastTimelineLimit(cues);
  if (late) {
    const end = formatTimestamp(late.end, format === 'srt' ? ',' : '.');
    throw invalidRequest(`text: cue ${late.index} (line ${late.line}) ends at ${end}; a narration may last at most ${MAX_NARRATION_HOURS} hours`);
  }
}

/**
 * Admits a TTS request: its own rules, then its voice and, for subtitles, the voices of named speakers
 * (`speakers` maps speaker names to voice ids; only the editor has such a setting).
 */
export function admitTts(validators: Validators, body: unknown, voices: VoiceSource, speakers: Record<string, string> = {}): AdmittedTts {
  const request = validTtsRequest(validators, body);
  const voice = readyVoice(voices, request.voiceId).ref;
  checkText(request);
  const others = speakerRefs(voices, speakers);
  const narration = request.inputFormat !== 'txt';
  return { request, voice: narration && Object.keys(others).length > 0 ? { ...voice, speakers: others } : voice };
}

/** The library's voice with this id, when a job may speak with it: else 422 (unknown) or 409 (not ready). */
export function readyVoice(voices: VoiceSource, voiceId: string): VoiceEntry {
  const entry = voices.get(voiceId);
  if (!entry) throw invalidRequest(`voiceId: no voice ${voiceId} in your voice library (see GET /voices)`);
  if (!isReadyVoice(entry.voice)) {
    throw new ApiError('VOICE_NOT_READY', `The voice ${entry.voice.name} is ${entry.voice.availability.replace('_', ' ')}.`);
  }
  return entry;
}

function speakerRefs(voices: VoiceSource, speakers: Record<string, string>): Record<string, TtsVoiceRef> {
  try {
    return speakerVoices(voices, speakers);
  } catch (error) {
    if (!(error instanceof SpeakerVoiceError)) throw error;
    throw error.reason === 'unknown' ? invalidRequest(`speakerVoices: ${error.message}`) : new ApiError('VOICE_NOT_READY', error.message);
  }
}

/** An STT request's options, checked, and whether the caller asked for diarization rather than took the default. */
export interface SttAsk {
  options: SttOptions;
  diarizationAsked: boolean;
}

/** The rules of an STT request's form fields (strings, as multipart sends them): the schema and the language. */
export function checkSttFields(validators: Validators, fields: Record<string, string>): SttAsk {
  const checked = validators.sttOptions(fields);
  if (!checked.ok) throw invalidRequest(checked.message);
  const options = checked.value;
  if (toWhisperLanguage(options.language) === null) {
    throw invalidRequest(`language: ${options.language} is not a language whisper transcribes; use auto or a code such as en`);
  }
  // An exact speaker count asks for speakers as plainly as diarizationEnabled=true does.
  const diarizationAsked = options.diarizationEnabled && ('diarizationEnabled' in fields || options.speakerCountMode === 'exact');
  return { options, diarizationAsked };
}

/** What a machine has for STT: its whisper and Parakeet models, and whether the diarization models are installed. */
export interface SttModels<M extends WhisperModelInfo = WhisperModelInfo> {
  models: readonly M[];
  diarization: boolean;
}

/** The STT models installed in a data directory, as admission needs them. */
export async function installedSttModels(dataDir: string): Promise<SttModels<InstalledWhisperModel>> {
  const [models, diarization] = await Promise.all([listSttModels(dataDir), diarizationModelsInstalled(dataDir)]);
  return { models, diarization };
}

export const hasSttModel = (installed: Pick<SttModels, 'models'>): boolean => installed.models.length > 0;

/** 409 when no STT model is installed at all: a door checks this before it reads an upload. */
export function requireSttModel(installed: Pick<SttModels, 'models'>): void {
  if (!hasSttModel(installed)) {
    throw new ApiError('MODEL_NOT_INSTALLED', 'No speech-to-text model is installed: add a whisper model (models install, or a ggml file in <data-dir>/models/whisper/) or a Parakeet model (<data-dir>/models/parakeet/).');
  }
}

/**
 * The installed model a request names: by file name, or by the id of the catalog entry that installs
 * that file. Undefined when none matches (the door decides what an unknown name means).
 */
export function findNamedSttModel<M extends InstalledWhisperModel>(models: readonly M[], id: string, catalog: Catalog = builtinCatalog()): M | undefined {
  const byName = models.find((model) => model.name === id);
  if (byName) return byName;
  const entry = catalog.models.find((candidate) => candidate.id === id && candidate.kind === 'stt');
  const targets = new Set(entry?.files.map((file) => file.target.split('/').at(-1)) ?? []);
  return models.find((model) => targets.has(model.name));
}

/** What a door may add to the STT options: a model the caller named, and whisper decoding hints. */
export interface SttModelRequest<M extends WhisperModelInfo = WhisperModelInfo> {
  /** The installed model the request named (findNamedSttModel); it is used or the request refused. */
  named?: M;
  hints?: WhisperHints;
}

/** The fields among `hints` that only whisper honours, as the request names them. */
function whisperOnlyFields(hints: WhisperHints | undefined): string[] {
  return [
    ...(hints?.prompt ? ['prompt'] : []),
    ...(hints?.translate ? ['translate'] : []),
    ...(hints?.temperature !== undefined && hints.temperature > 0 ? ['temperature'] : []),
  ];
}

const PARAKEET_CANNOT: Readonly<Record<string, string>> = {
  prompt: 'takes no prompt',
  translate: 'only transcribes; it cannot translate into English',
  temperature: 'decodes greedily and takes no temperature',
};

/** 422 naming the first field the Parakeet model `name` cannot honour. */
function parakeetRefusal(field: string, name: string, alternative: string): ApiError {
  return invalidRequest(`${field}: the Parakeet model ${name} ${PARAKEET_CANNOT[field] ?? 'cannot honour it'}; ${alternative}`);
}

/** An STT request that may run: its final options and the model that transcribes it. */
export interface AdmittedStt<M extends WhisperModelInfo> {
  options: SttOptions;
  model: M;
}

/** What the model rules read of a request (the relay's routing has no more than this of a stored job). */
interface SttNeeds {
  options: Pick<SttOptions, 'language'> & Partial<SttOptions>;
  diarizationAsked: boolean;
}

/** The rules that depend on what is installed: some model, one that serves the request, diarization when asked. */
function chooseSttModel<M extends WhisperModelInfo>(ask: SttNeeds, installed: SttModels<M>, preferredModel?: string, request: SttModelRequest<M> = {}): M {
  requireSttModel(installed);
  const { language, speakerCountMode } = ask.options;
  const whisperOnly = whisperOnlyFields(request.hints);
  // A named whisper model is taken as the preferred one (as the OpenAI door always did); a named Parakeet one strictly.
  const named = request.named && isParakeet(request.named) ? namedParakeet(request.named, language, whisperOnly) : undefined;
  const model = named ?? chooseWhisperModel(installed.models, language, request.named?.name ?? preferredModel, { whisperOnly: whisperOnly.length > 0 })
    ?? englishForAuto(installed.models, language, request.named?.name ?? preferredModel, whisperOnly.length > 0);
  if (!model) {
    const parakeet = whisperOnly.length > 0 ? chooseWhisperModel(installed.models, language) : undefined;
    if (parakeet) throw parakeetRefusal(whisperOnly[0] ?? '', parakeet.name, `leave ${whisperOnly[0]} out, or install a whisper model.`);
    throw new ApiError('MODEL_NOT_INSTALLED', `No installed speech-to-text model handles language ${language}: ${coverage(installed.models)}.`);
  }
  if (ask.diarizationAsked && !installed.diarization) {
    const why = speakerCountMode === 'exact' ? 'An exact speakerCount asks for speaker diarization, which needs' : 'Speaker diarization needs';
    throw new ApiError('MODEL_NOT_INSTALLED', `${why} the diarization models (pyannote segmentation and speaker embedding), which are not installed.`);
  }
  return model;
}

/**
 * `auto` on a machine whose whisper models are all English-only: they cannot detect a language and decode
 * English whatever they are told, so auto means English (the engine says so in the job's result).
 */
function englishForAuto<M extends WhisperModelInfo>(models: readonly M[], language: string, preferred: string | undefined, whisperOnly: boolean): M | undefined {
  if (language.trim().toLowerCase() !== 'auto') return undefined;
  const model = chooseWhisperModel(models, 'en', preferred, { whisperOnly });
  return model && model.englishOnly && !isParakeet(model) ? model : undefined;
}

/** A Parakeet model the request named, when it can honour the request; else a 422 naming the field. */
function namedParakeet<M extends WhisperModelInfo>(model: M, language: string, whisperOnly: readonly string[]): M {
  const field = whisperOnly[0];
  if (field) throw parakeetRefusal(field, model.name, `leave ${field} out, or choose a whisper model (see GET /models).`);
  if (!servesLanguage(model, language)) {
    throw invalidRequest(`language: the Parakeet model ${model.name} does not transcribe ${language}; it covers ${model.languages?.join(', ')} (or ask for auto, or choose a whisper model).`);
  }
  return model;
}

/** What the installed models cover, for a refusal: "the installed ones are English-only" and the like. */
function coverage(models: readonly WhisperModelInfo[]): string {
  if (models.every((model) => model.englishOnly)) return 'the installed ones are English-only';
  const languages = [...new Set(models.flatMap((model) => model.languages ?? []))];
  return `the installed ones cover ${languages.join(', ')}`;
}

/**
 * Admits checked STT options against the installed models (`preferredModel`: the settings' choice, if
 * any; `request`: what the door adds, a named model and whisper hints).
 */
export function admitStt<M extends WhisperModelInfo>(ask: SttAsk, installed: SttModels<M>, preferredModel?: string, request: SttModelRequest<M> = {}): AdmittedStt<M> {
  const model = chooseSttModel(ask, installed, preferredModel, request);
  // Diarization is on by default; without its models a plain transcript is what the caller expects.
  const options = installed.diarization ? { ...ask.options } : { ...ask.options, diarizationEnabled: false };
  return { options, model };
}

/** Why admitStt would refuse a request on a machine with these models; undefined when it would admit it. */
export function sttRefusal(ask: SttNeeds, installed: SttModels): ApiError | undefined {
  try {
    chooseSttModel(ask, installed);
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}
