import type { SttOptions } from '../../contract/types';
import type { DiarizationModels } from '../../models/model-files';
import { requireSherpa } from '../native-parts';

/** A stretch of audio (seconds) that the diarizer gave to one speaker; speakers are numbered arbitrarily. */
export interface SpeakerTurn {
  start: number;
  end: number;
  speaker: number;
}

export interface DiarizeOptions {
  speakerCountMode: SttOptions['speakerCountMode'];
  speakerCount?: number;
  threads: number;
  /** Fraction done, 0–1. */
  onProgress?: (fraction: number) => void;
}

// sherpa-onnx-node ships JSDoc only: these are the parts used here, checked against version 1.13.8.
interface ClusteringConfig {
  numClusters: number;
  threshold: number;
}
interface SherpaDiarizer {
  readonly handle: unknown;
  readonly sampleRate: number;
  process(samples: Float32Array): SpeakerTurn[];
  setConfig(config: { clustering: ClusteringConfig }): void;
}
interface SherpaModule {
  OfflineSpeakerDiarization: new (config: {
    segmentation: { pyannote: { model: string }; numThreads: number };
    embedding: { model: string; numThreads: number };
    clustering: ClusteringConfig;
  }) => SherpaDiarizer;
}
interface SherpaAddon {
  // Not wrapped by the JS class, but present in the addon: it runs off the event loop and reports chunks.
  offlineSpeakerDiarizationProcessAsync?: (
    handle: unknown,
    samples: Float32Array,
    onProgress: (processedChunks: number, totalChunks: number) => number,
  ) => Promise<SpeakerTurn[]>;
}

// sherpa-onnx's default: cosine distance under which two embeddings are one speaker.
const AUTO_CLUSTER_THRESHOLD = 0.5;

let loaded: { key: string; diarizer: SherpaDiarizer } | null = null;

/**
 * Who spoke when, with sherpa-onnx's pyannote segmentation + speaker embeddings + clustering, on 16 kHz
 * mono 16-bit PCM. An exact speaker count becomes the number of clusters; `auto` clusters by distance.
 * Models with bad metadata make sherpa-onnx end the process, which is why this runs in the engine process.
 */
export async function diarizeSpeakers(
  pcm: Int16Array,
  models: DiarizationModels,
  options: DiarizeOptions,
): Promise<SpeakerTurn[]> {
  if (pcm.length === 0) return [];
  const clustering: ClusteringConfig =
    options.speakerCountMode === 'exact' && options.speakerCount !== undefined
      ? { numClusters: options.speakerCount, threshold: AUTO_CLUSTER_THRESHOLD }
      : { numClusters: -1, threshold: AUTO_CLUSTER_THRESHOLD };
  const diarizer = loadDiarizer(models, options.threads, clustering);
  const samples = toFloat32(pcm);

  const addon = require('sherpa-onnx-node/addon.js') as SherpaAddon;
  const turns = addon.offlineSpeakerDiarizationProcessAsync
    ? await addon.offlineSpeakerDiarizationProcessAsync(diarizer.handle, samples, (done, total) => {
        if (total > 0) options.onProgress?.(done / total);
        return 0;
      })
    : diarizer.process(samples);
  return turns.map(({ start, end, speaker }) => ({ start, end, speaker }));
}

function loadDiarizer(models: DiarizationModels, threads: number, clustering: ClusteringConfig): SherpaDiarizer {
  const key = `${models.segmentation}\n${models.embedding}\n${threads}`;
  if (loaded?.key === key) {
    loaded.diarizer.setConfig({ clustering });
    return loaded.diarizer;
  }
  const sherpa = requireSherpa<SherpaModule>();
  const diarizer = new sherpa.OfflineSpeakerDiarization({
    segmentation: { pyannote: { model: models.segmentation }, numThreads: threads },
    embedding: { model: models.embedding, numThreads: threads },
    clustering,
  });
  loaded = { key, diarizer };
  return diarizer;
}

function toFloat32(pcm: Int16Array): Float32Array {
  const samples = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i += 1) samples[i] = pcm[i] / 32768;
  return samples;
}
