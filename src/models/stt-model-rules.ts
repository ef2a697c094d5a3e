/**
 * The STT rules that depend on what is installed: some model at all, one that serves the request's language
 * (whisper.cpp or Parakeet, a named one strictly), the diarization models when the caller asked for speakers.
 * Admission applies them to this machine's models (src/jobs/admission.ts), and the relay routes by them to the
 * models a device announced (src/link/capabilities.ts), so the two cannot disagree.
 */
import { ApiError, invalidRequest } from '../contract/errors';
import type { SttOptions } from '../contract/types';
import { chooseWhisperModel, isParakeet, servesLanguage, type WhisperModelInfo } from './installed-models';

/** The whisper decoding hints a request may carry (the engine's WhisperHints), as far as the model choice reads them. */
export interface SttHints {
  prompt?: string;
  translate?: boolean;
  temperature?: number;
}

/** What a machine has for STT: its whisper and Parakeet models, and whether the diarization models are installed. */
export interface SttModels<M extends WhisperModelInfo = WhisperModelInfo> {
  models: readonly M[];
  diarization: boolean;
}


export const hasSttModel = (installed: Pick<SttModels, 'models'>): boolean => installed.models.length > 0;

/** 409 when no STT model is installed at all: a door checks this before it reads an upload. */
export function requireSttModel(installed: Pick<SttModels, 'models'>): void {
  if (!hasSttModel(installed)) {
    throw new ApiError('MODEL_NOT_INSTALLED', 'No speech-to-text model is installed: add a whisper model (models install, or a ggml file in <data-dir>/models/whisper/) or a Parakeet model (<data-dir>/models/parakeet/).');
  }
}


/** What a door may add to the STT options: a model the caller named, and whisper decoding hints. */
export interface SttModelRequest<M extends WhisperModelInfo = WhisperModelInfo> {
  /** The installed model the request named (findNamedSttModel); it is used or the request refused. */
  named?: M;
  hints?: SttHints;
}

/** The fields among `hints` that only whisper honours, as the request names them. */
function whisperOnlyFields(hints: SttHints | undefined): string[] {
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

/** What the model rules read of a request (the relay's routing has no more than this of a stored job). */
export interface SttNeeds {
  options: Pick<SttOptions, 'language'> & Partial<SttOptions>;
  diarizationAsked: boolean;
}

/** The rules that depend on what is installed: some model, one that serves the request, diarization when asked. */
export function chooseSttModel<M extends WhisperModelInfo>(ask: SttNeeds, installed: SttModels<M>, preferredModel?: string, request: SttModelRequest<M> = {}): M {
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

/** Why admission (src/jobs/admission.ts admitStt) would refuse a request on a machine with these models; undefined when it would admit it. */
export function sttRefusal(ask: SttNeeds, installed: SttModels): ApiError | undefined {
  try {
    chooseSttModel(ask, installed);
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}
