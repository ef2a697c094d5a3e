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
 *        model named, a request with whisper-only fields goes to a whisper model. The rules on the installed
 *        models live in src/models/stt-model-rules.ts, which the relay's routing applies too.
 */
import { ApiError, invalidRequest } from '../contract/errors';
import type { SttOptions, TtsRequest } from '../contract/types';
import type { Validators } from '../contract/validation';
import { toWhisperLanguage } from '../models/whisper-languages';
import { builtinCatalog, type Catalog } from '../models/catalog';
import {
  diarizationModelsInstalled,
  listSttModels,
  type InstalledWhisperModel,
  type WhisperModelInfo,
} from '../models/installed-models';
import { chooseSttModel, type SttModelRequest, type SttModels } from '../models/stt-model-rules';
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
    throw invalidRequest(
      'text: has nothing to speak: no letter, digit or sign a voice reads, only punctuation, emoji, invisible or control characters',
    );
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
    throw invalidRequest(
      `text: cue ${late.index} (line ${late.line}) ends at ${end}; a narration may last at most ${MAX_NARRATION_HOURS} hours`,
    );
  }
}

/**
 * Admits a TTS request: its own rules, then its voice and, for subtitles, the voices of named speakers
 * (`speakers` maps speaker names to voice ids; only the editor has such a setting).
 */
export function admitTts(
  validators: Validators,
  body: unknown,
  voices: VoiceSource,
  speakers: Record<string, string> = {},
): AdmittedTts {
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
    throw new ApiError(
      'VOICE_NOT_READY',
      `The voice ${entry.voice.name} is ${entry.voice.availability.replace('_', ' ')}.`,
    );
  }
  return entry;
}

function speakerRefs(voices: VoiceSource, speakers: Record<string, string>): Record<string, TtsVoiceRef> {
  try {
    return speakerVoices(voices, speakers);
  } catch (error) {
    if (!(error instanceof SpeakerVoiceError)) throw error;
    throw error.reason === 'unknown'
      ? invalidRequest(`speakerVoices: ${error.message}`)
      : new ApiError('VOICE_NOT_READY', error.message);
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
    throw invalidRequest(
      `language: ${options.language} is not a language whisper transcribes; use auto or a code such as en`,
    );
  }
  // An exact speaker count asks for speakers as plainly as diarizationEnabled=true does.
  const diarizationAsked =
    options.diarizationEnabled && ('diarizationEnabled' in fields || options.speakerCountMode === 'exact');
  return { options, diarizationAsked };
}

/** The STT models installed in a data directory, as admission needs them. */
export async function installedSttModels(dataDir: string): Promise<SttModels<InstalledWhisperModel>> {
  const [models, diarization] = await Promise.all([listSttModels(dataDir), diarizationModelsInstalled(dataDir)]);
  return { models, diarization };
}

/**
 * The installed model a request names: by file name, or by the id of the catalog entry that installs
 * that file. Undefined when none matches (the door decides what an unknown name means).
 */
export function findNamedSttModel<M extends InstalledWhisperModel>(
  models: readonly M[],
  id: string,
  catalog: Catalog = builtinCatalog(),
): M | undefined {
  const byName = models.find((model) => model.name === id);
  if (byName) return byName;
  const entry = catalog.models.find((candidate) => candidate.id === id && candidate.kind === 'stt');
  const targets = new Set(entry?.files.map((file) => file.target.split('/').at(-1)) ?? []);
  return models.find((model) => targets.has(model.name));
}

/** An STT request that may run: its final options and the model that transcribes it. */
export interface AdmittedStt<M extends WhisperModelInfo> {
  options: SttOptions;
  model: M;
}

/**
 * Admits checked STT options against the installed models (`preferredModel`: the settings' choice, if
 * any; `request`: what the door adds, a named model and whisper hints).
 */
export function admitStt<M extends WhisperModelInfo>(
  ask: SttAsk,
  installed: SttModels<M>,
  preferredModel?: string,
  request: SttModelRequest<M> = {},
): AdmittedStt<M> {
  const model = chooseSttModel(ask, installed, preferredModel, request);
  // Diarization is on by default; without its models a plain transcript is what the caller expects.
  const options = installed.diarization ? { ...ask.options } : { ...ask.options, diarizationEnabled: false };
  return { options, model };
}

export {
  hasSttModel,
  requireSttModel,
  sttRefusal,
  type SttModelRequest,
  type SttModels,
} from '../models/stt-model-rules';
