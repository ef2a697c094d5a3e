import { initWhisperVad, type VadOptions, type WhisperVadContext } from '@fugood/whisper.node';
import { requireWhisper } from '../native-parts';
import { SPEECH_SAMPLE_RATE } from '../media/decode-pcm16';
import type { SpeechRange } from './speech-timeline';

// VAD runs at about 5 % of real time on two cores and reports nothing while it runs: long audio goes in
// pieces so progress moves (Silero restarts its state at each cut, which costs nothing noticeable).
const PIECE_SECONDS = 120;

let loaded: { modelPath: string; context: Promise<WhisperVadContext> } | null = null;

async function loadVadModel(modelPath: string, threads: number): Promise<WhisperVadContext> {
  if (loaded?.modelPath === modelPath) return loaded.context;
  if (loaded) {
    const previous = loaded.context;
    loaded = null;
    await (await previous.catch(() => null))?.release();
  }
  await requireWhisper();
  const context = initWhisperVad({ filePath: modelPath, useGpu: false, nThreads: threads });
  loaded = { modelPath, context };
  return context.catch((error: unknown) => {
    loaded = null;
    throw error;
  });
}

/**
 * Finds the stretches of speech in 16 kHz mono 16-bit PCM with whisper.cpp's Silero VAD, in seconds.
 * The binding's `transcribeData` has no VAD options, so VAD runs here as its own step (whisper.cpp's
 * defaults: threshold 0.5, 250 ms minimum speech, 100 ms minimum silence, 30 ms padding).
 */
export async function detectSpeech(
  pcm: Int16Array,
  modelPath: string,
  threads: number,
  onProgress?: (fraction: number) => void,
  /** Over whisper.cpp's defaults (live turn detection sets its own threshold). */
  vadOptions: VadOptions = {},
): Promise<SpeechRange[]> {
  if (pcm.length === 0) return [];
  const context = await loadVadModel(modelPath, threads);
  const pieceCount = Math.ceil(pcm.length / (PIECE_SECONDS * SPEECH_SAMPLE_RATE));
  const pieceLength = Math.ceil(pcm.length / pieceCount);
  const ranges: SpeechRange[] = [];
  for (let from = 0; from < pcm.length; from += pieceLength) {
    // A copy: the binding takes a whole ArrayBuffer, not a view.
    const piece = pcm.slice(from, from + pieceLength);
    const offset = from / SPEECH_SAMPLE_RATE;
    const segments = await context.detectSpeechData(piece.buffer, vadOptions);
    // The binding gives centiseconds.
    for (const segment of segments) ranges.push({ start: offset + segment.t0 / 100, end: offset + segment.t1 / 100 });
    onProgress?.(Math.min(1, (from + pieceLength) / pcm.length));
  }
  return ranges;
}
