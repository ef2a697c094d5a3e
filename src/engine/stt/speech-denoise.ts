/**
 * Speech enhancement before recognition with GTCRN (sherpa-onnx's OfflineSpeechDenoiser), for live sessions that
 * ask for noise reduction: 16 kHz mono 16-bit PCM in, the same length out. The model is the newest
 * `<models-dir>/enhancement/gtcrn*.onnx`; it is loaded once per engine process and kept.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { SPEECH_SAMPLE_RATE } from '../media/decode-pcm16';
import { requireSherpa } from '../native-parts';
import { UserFacingError } from '../../engine-api/protocol';

interface SherpaDenoiser {
  readonly sampleRate: number;
  run(request: { samples: Float32Array; sampleRate: number; enableExternalBuffer?: boolean }): {
    samples: Float32Array;
    sampleRate: number;
  };
}
interface SherpaModule {
  OfflineSpeechDenoiser: new (config: {
    model: { gtcrn: { model: string }; numThreads: number; debug: boolean };
  }) => SherpaDenoiser;
}

let loaded: { model: string; denoiser: SherpaDenoiser } | null = null;

/** The GTCRN model in `<models-dir>/enhancement/`, or null when none is installed. */
export async function findDenoiserModel(modelsDir: string): Promise<string | null> {
  const dir = path.join(modelsDir, 'enhancement');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => /^gtcrn.*\.onnx$/i.test(name)).sort();
  return names.length === 0 ? null : path.join(dir, names[names.length - 1]);
}

/** `pcm` with the noise taken out; throws a UserFacingError when the model is not installed. */
export async function denoiseSpeech(pcm: Int16Array, modelsDir: string, threads: number): Promise<Int16Array> {
  if (pcm.length === 0) return pcm;
  const model = await findDenoiserModel(modelsDir);
  if (!model)
    throw new UserFacingError(
      `Noise reduction needs the GTCRN speech enhancement model: put gtcrn_simple.onnx in ${path.join(modelsDir, 'enhancement')}, or set noise_reduction to null.`,
    );
  if (loaded?.model !== model)
    loaded = {
      model,
      denoiser: new (requireSherpa<SherpaModule>().OfflineSpeechDenoiser)({
        model: { gtcrn: { model }, numThreads: threads, debug: false },
      }),
    };
  const samples = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i += 1) samples[i] = pcm[i] / 32768;
  const cleaned = loaded.denoiser.run({ samples, sampleRate: SPEECH_SAMPLE_RATE, enableExternalBuffer: false });
  if (cleaned.sampleRate !== SPEECH_SAMPLE_RATE)
    throw new Error(`The denoiser answered ${cleaned.sampleRate} Hz audio, not ${SPEECH_SAMPLE_RATE} Hz.`);
  // The same length as the input, so times in the session stay where they were.
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < out.length && i < cleaned.samples.length; i += 1) {
    const value = Math.round(cleaned.samples[i] * 32768);
    out[i] = value > 32767 ? 32767 : value < -32768 ? -32768 : value;
  }
  return out;
}
