/**
 * Neural voices (Piper/VITS, Kokoro, Kitten, Matcha, ZipVoice) through sherpa-onnx-node's OfflineTts. A loaded
 * model stays in this engine process for the next job with the same configuration (the process exits when
 * idle). Loading happens here, in the engine process, because bad model metadata makes sherpa end the
 * process rather than throw.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { readWavSamples } from '../../audio/wav-reader';
import { UserFacingError, type SherpaVoiceModel, type TtsVoiceRef } from '../../protocol';
import { requireSherpa } from '../../native-parts';
import { ensureEspeakData } from './espeak-data';
import { REQUIRED_FILES } from '../../../voices/voice-ref';
import { sherpaGenerateRequest, sherpaTtsConfig, type SherpaTtsConfig } from './sherpa-config';
import { asksForOtherLanguage, floatToInt16, type EngineSettings, type OpenedEngine } from './synthesizer';

interface OfflineTts {
  sampleRate: number;
  numSpeakers: number;
  generate(request: Record<string, unknown>): { samples: Float32Array; sampleRate: number };
}

const loaded = new Map<string, OfflineTts>();

function loadTts(config: SherpaTtsConfig): OfflineTts {
  const key = JSON.stringify(config);
  let tts = loaded.get(key);
  if (!tts) {
    // Keep one model at a time: a job with another voice frees the previous one's memory.
    loaded.clear();
    const sherpa = requireSherpa<{ OfflineTts: new (config: SherpaTtsConfig) => OfflineTts }>();
    tts = new sherpa.OfflineTts(config);
    loaded.set(key, tts);
  }
  return tts;
}

async function readReference(path: string): Promise<{ samples: Float32Array; sampleRate: number }> {
  const { info, samples } = readWavSamples(await readFile(path));
  const mono = new Float32Array(info.frames);
  for (let i = 0; i < info.frames; i++) mono[i] = samples[i * info.channels] / 32768;
  return { samples: mono, sampleRate: info.sampleRate };
}

export async function openSherpaEngine(voice: TtsVoiceRef, settings: EngineSettings): Promise<OpenedEngine> {
  const model = voice.model as SherpaVoiceModel | undefined;
  if (!model?.kind) throw new UserFacingError(`The voice ${voice.name ?? voice.engineVoiceId} has no model configuration.`);
  const missing = REQUIRED_FILES[model.kind].map((name) => model.files[name]).filter((file) => !file || !existsSync(file));
  if (missing.length > 0) {
    throw new UserFacingError(`The voice ${voice.name ?? voice.engineVoiceId} is not installed: ${missing.join(', ')} is missing.`);
  }
  await ensureEspeakData(model.espeakDataDir);
  const language = model.multiLingual && asksForOtherLanguage(settings.language, voice.languageCode) ? settings.language : null;
  const tts = loadTts(sherpaTtsConfig(model, { guidanceScale: settings.guidanceScale, language }));
  if (model.speakerId >= tts.numSpeakers) {
    throw new UserFacingError(`The voice ${voice.name ?? voice.engineVoiceId} asks for speaker ${model.speakerId}, but its model has ${tts.numSpeakers}.`);
  }
  const reference = model.kind === 'zipvoice' && model.reference ? await readReference(model.reference.audioPath) : undefined;
  const zipvoice = model.kind === 'zipvoice';
  return {
    engine: {
      backend: 'sherpa-onnx',
      sampleRate: tts.sampleRate,
      nativeSpeed: true,
      synthesize: async (text) => floatToInt16(tts.generate(sherpaGenerateRequest(model, text, settings.speed, settings.steps, reference)).samples),
    },
    notes: { language, steps: zipvoice ? settings.steps : null, guidanceScale: zipvoice ? settings.guidanceScale : null },
  };
}
