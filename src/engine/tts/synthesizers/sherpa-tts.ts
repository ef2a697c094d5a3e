/**
 * Neural voices (Piper/VITS, Kokoro, Kitten, Matcha, ZipVoice) through sherpa-onnx-node's OfflineTts. A loaded
 * model stays in this engine process for the next job with the same configuration (the process exits when
 * idle). Loading happens here, in the engine process, because bad model metadata makes sherpa end the
 * process rather than throw.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readWavSamples } from '../../../audio/wav-reader';
import { UserFacingError, type SherpaVoiceModel, type TtsVoiceRef } from '../../../engine-api/protocol';
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

/**
 * sherpa-onnx's ZipVoice front end ends the process without a lexicon file, yet needs no entries in it: words
 * it does not list go to espeak-ng. The catalog's model has none (sherpa's archive generates a Chinese one),
 * so an empty one beside the espeak-ng data stands in unless the voice names its own.
 */
async function emptyLexicon(espeakDataDir: string): Promise<string> {
  const file = path.join(path.dirname(espeakDataDir), 'zipvoice-empty-lexicon.txt');
  if (!existsSync(file)) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '');
  }
  return file;
}

export async function openSherpaEngine(voice: TtsVoiceRef, settings: EngineSettings): Promise<OpenedEngine> {
  const given = voice.model as SherpaVoiceModel | undefined;
  if (!given?.kind)
    throw new UserFacingError(`The voice ${voice.name ?? voice.engineVoiceId} has no model configuration.`);
  let model: SherpaVoiceModel = given;
  const missing = REQUIRED_FILES[model.kind]
    .map((name) => given.files[name])
    .filter((file) => !file || !existsSync(file));
  if (missing.length > 0) {
    throw new UserFacingError(
      `The voice ${voice.name ?? voice.engineVoiceId} is not installed: ${missing.join(', ')} is missing.`,
    );
  }
  await ensureEspeakData(model.espeakDataDir);
  if (model.kind === 'zipvoice' && !model.files.lexicon)
    model = { ...model, files: { ...model.files, lexicon: await emptyLexicon(model.espeakDataDir) } };
  const language =
    model.multiLingual && asksForOtherLanguage(settings.language, voice.languageCode) ? settings.language : null;
  const tts = loadTts(sherpaTtsConfig(model, { guidanceScale: settings.guidanceScale, language }));
  if (model.speakerId >= tts.numSpeakers) {
    throw new UserFacingError(
      `The voice ${voice.name ?? voice.engineVoiceId} asks for speaker ${model.speakerId}, but its model has ${tts.numSpeakers}.`,
    );
  }
  const reference =
    model.kind === 'zipvoice' && model.reference ? await readReference(model.reference.audioPath) : undefined;
  const zipvoice = model.kind === 'zipvoice';
  return {
    engine: {
      backend: 'sherpa-onnx',
      sampleRate: tts.sampleRate,
      nativeSpeed: true,
      synthesize: async (text) =>
        floatToInt16(
          tts.generate(sherpaGenerateRequest(model, text, settings.speed, settings.steps, reference)).samples,
        ),
    },
    notes: {
      language,
      steps: zipvoice ? settings.steps : null,
      guidanceScale: zipvoice ? settings.guidanceScale : null,
    },
  };
}
