/**
 * A voice's embedding with sherpa-onnx's speaker embedding extractor (the diarization embedding model), from
 * 16 kHz mono 16-bit PCM. The engine configuration's `fixedSpeakerEmbedding` (src/config/engine-environment.ts)
 * makes every voice the same (a test hook: the test models have random weights, so only the naming mechanism
 * can be checked with them).
 */
import { engineConfig } from '../../engine-api/engine-config';
import { requireSherpa } from '../native-parts';

interface OnlineStream {
  acceptWaveform(input: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}
interface SherpaExtractor {
  readonly dim: number;
  createStream(): OnlineStream;
  isReady(stream: OnlineStream): boolean;
  compute(stream: OnlineStream, enableExternalBuffer?: boolean): Float32Array;
}
interface SherpaModule {
  SpeakerEmbeddingExtractor: new (config: { model: string; numThreads: number }) => SherpaExtractor;
}

let loaded: { model: string; extractor: SherpaExtractor } | null = null;

/** The embedding, or null when the audio is too short for the extractor. */
export function speakerEmbedding(pcm: Int16Array, model: string, threads: number): number[] | null {
  if (pcm.length === 0) return null;
  if (engineConfig().fixedSpeakerEmbedding) return [1, 0, 0, 0];
  if (loaded?.model !== model)
    loaded = {
      model,
      extractor: new (requireSherpa<SherpaModule>().SpeakerEmbeddingExtractor)({ model, numThreads: threads }),
    };
  const { extractor } = loaded;
  const stream = extractor.createStream();
  const samples = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i += 1) samples[i] = pcm[i] / 32768;
  stream.acceptWaveform({ samples, sampleRate: 16_000 });
  stream.inputFinished();
  if (!extractor.isReady(stream)) return null;
  return Array.from(extractor.compute(stream, false));
}
