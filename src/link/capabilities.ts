/**
 * What a device says it can run, and the checks the relay routes by. The device builds this from its
 * installed models and voice library (src/device/capabilities.ts); the relay never looks further.
 */
import type { SttOptions, Voice } from '../contract/types';
import { hasSttModel, sttRefusal } from '../models/stt-model-rules';
import type { WhisperModelInfo } from '../models/installed-models';
import { isReadyVoice } from '../voices/voice-entry';

/** A whisper model as a device announces it (`.en` models transcribe English only). */
export type SttModelInfo = WhisperModelInfo;

export interface DeviceCapabilities {
  /** The product version of the device, for the portal. */
  version: string;
  tts: { voices: Voice[] };
  stt: { models: SttModelInfo[]; diarization: boolean };
  /** Remote jobs the device will take at once (waiting or running). */
  queueCapacity: number;
  /** Processor cores the device has; absent from devices older than this field. */
  cores?: number;
}

export const EMPTY_CAPABILITIES: DeviceCapabilities = {
  version: 'unknown',
  tts: { voices: [] },
  stt: { models: [], diarization: false },
  queueCapacity: 0,
};

export function canRunTts(capabilities: DeviceCapabilities, voiceId: string): boolean {
  const id = voiceId.toLowerCase();
  return capabilities.tts.voices.some((voice) => voice.id === id && isReadyVoice(voice));
}

/**
 * Whether the device would admit an STT job with the models it announced (src/models/stt-model-rules.ts, the
 * rules admission applies): a model that serves the language, and the diarization models when the caller asked
 * for diarization.
 */
export function canRunStt(
  capabilities: DeviceCapabilities,
  options: Pick<SttOptions, 'language'> & Partial<SttOptions>,
  diarizationAsked: boolean,
): boolean {
  return sttRefusal({ options, diarizationAsked }, capabilities.stt) === undefined;
}

export const hasAnyStt = (capabilities: DeviceCapabilities): boolean => hasSttModel(capabilities.stt);
export const hasAnyTts = (capabilities: DeviceCapabilities): boolean => capabilities.tts.voices.some(isReadyVoice);

/** Reads a capabilities object sent by a device, refusing anything of the wrong shape. */
export function parseCapabilities(value: unknown): DeviceCapabilities | undefined {
  const v = value as Partial<DeviceCapabilities> | null;
  if (!v || typeof v !== 'object') return undefined;
  if (typeof v.version !== 'string' || !Number.isInteger(v.queueCapacity) || (v.queueCapacity as number) < 0)
    return undefined;
  if (
    !v.tts ||
    !Array.isArray(v.tts.voices) ||
    !v.stt ||
    !Array.isArray(v.stt.models) ||
    typeof v.stt.diarization !== 'boolean'
  )
    return undefined;
  const voicesOk = v.tts.voices.every(
    (voice) =>
      voice && typeof voice.id === 'string' && typeof voice.name === 'string' && typeof voice.languageCode === 'string',
  );
  const modelsOk = v.stt.models.every(
    (model) =>
      model &&
      typeof model.name === 'string' &&
      typeof model.englishOnly === 'boolean' &&
      (model.engine === undefined || model.engine === 'whisper' || model.engine === 'parakeet') &&
      (model.languages === undefined ||
        (Array.isArray(model.languages) &&
          model.languages.length <= 200 &&
          model.languages.every((code) => typeof code === 'string'))),
  );
  if (!voicesOk || !modelsOk || v.tts.voices.length > 5000 || v.stt.models.length > 200) return undefined;
  if (v.cores !== undefined && (!Number.isInteger(v.cores) || v.cores < 1 || v.cores > 4096)) return undefined;
  return v as DeviceCapabilities;
}
