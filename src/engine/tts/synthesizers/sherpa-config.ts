/**
 * The OfflineTts configuration sherpa-onnx-node gets for a neural voice: pure data, so the tests can check
 * what a Piper, Kokoro, Kitten, Matcha or ZipVoice voice would be loaded with, without its weights.
 */
import { availableParallelism } from 'node:os';
import type { SherpaVoiceModel } from '../../../engine-api/protocol';
import { REQUIRED_FILES } from '../../../voices/voice-ref';

export interface SherpaTtsConfig {
  model: {
    vits?: Record<string, string>;
    kokoro?: Record<string, string>;
    kitten?: Record<string, string>;
    matcha?: Record<string, string>;
    zipvoice?: Record<string, string | number>;
    numThreads: number;
    debug: number;
    provider: 'cpu';
  };
  /** One sentence at a time: our own chunking already bounds the text. */
  maxNumSentences: number;
}

export interface SherpaJobSettings {
  guidanceScale: number;
  /** The request's language when it differs from the voice's; only multi-lingual Kokoro takes one. */
  language: string | null;
  threads?: number;
}

/**
 * The configuration for a voice and a job: ZipVoice takes `guidanceScale` in its model config, and a
 * multi-lingual Kokoro its `lang`; everything else is the same for every job of the voice.
 */
export function sherpaTtsConfig(model: SherpaVoiceModel, settings: SherpaJobSettings): SherpaTtsConfig {
  const missing = REQUIRED_FILES[model.kind].filter((name) => !model.files[name]);
  if (missing.length > 0) throw new TypeError(`Expected ${model.kind} files ${missing.join(', ')}`);
  const files = Object.fromEntries(REQUIRED_FILES[model.kind].map((name) => [name, model.files[name]]));
  // Kitten's config has no lexicon: the pronunciation lexicon reaches it as respelled text.
  if (model.files.lexicon && model.kind !== 'kitten') files.lexicon = model.files.lexicon;
  const dataDir = model.espeakDataDir;
  const base = {
    numThreads: settings.threads ?? Math.min(4, availableParallelism()),
    debug: 0,
    provider: 'cpu' as const,
  };
  switch (model.kind) {
    case 'vits':
      return { model: { ...base, vits: { ...files, dataDir } }, maxNumSentences: 1 };
    case 'kitten':
      return { model: { ...base, kitten: { ...files, dataDir } }, maxNumSentences: 1 };
    case 'matcha':
      return { model: { ...base, matcha: { ...files, dataDir } }, maxNumSentences: 1 };
    case 'kokoro': {
      const kokoro: Record<string, string> = { ...files, dataDir };
      const lang = settings.language ?? model.speakerLanguage;
      if (model.multiLingual && lang) kokoro.lang = lang;
      return { model: { ...base, kokoro }, maxNumSentences: 1 };
    }
    case 'zipvoice':
      return {
        model: { ...base, zipvoice: { ...files, dataDir, guidanceScale: settings.guidanceScale } },
        maxNumSentences: 1,
      };
  }
}

/** What one generate() call gets: ZipVoice also takes the step count and the reference recording. */
export function sherpaGenerateRequest(
  model: SherpaVoiceModel,
  text: string,
  speed: number,
  steps: number,
  reference?: { samples: Float32Array; sampleRate: number },
): Record<string, unknown> {
  const request: Record<string, unknown> = { text, sid: model.speakerId, speed };
  if (model.kind === 'zipvoice') {
    request.generationConfig = {
      speed,
      sid: model.speakerId,
      numSteps: steps,
      referenceAudio: reference?.samples,
      referenceSampleRate: reference?.sampleRate,
      referenceText: model.reference?.text ?? '',
    };
  }
  return request;
}
