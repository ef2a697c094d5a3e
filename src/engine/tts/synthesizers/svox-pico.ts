/**
 * SVOX Pico (WebAssembly) as a SpeechEngine. The engine ships with `@echogarden/svoxpico-wasm`; its
 * lingware (a text-analysis and a signal-generation file per language) does not, so a Pico voice is ready
 * only once those two files are in `<data-dir>/models/tts/svox-pico/` (see src/voices/pico-voices.ts).
 * Speed is Pico's own `<speed level>` markup; output is 16 kHz.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PicoModule } from '@echogarden/svoxpico-wasm';
import { concatSamples } from '../../audio/samples';
import { UserFacingError, type PicoVoiceModel, type TtsVoiceRef } from '../../../engine-api/protocol';
import type { EngineSettings, OpenedEngine } from './synthesizer';

const PICO_SAMPLE_RATE = 16_000;
const PICO_MEMORY = 2_500_000;
const STEP_IDLE = 200;
const STEP_BUSY = 201;
const VOICE_NAME = 'SpeechStudio';

class PicoSession {
  private readonly allocations: number[] = [];
  private system = 0;
  private engine = 0;

  constructor(private readonly m: PicoModule) {}

  alloc(bytes: number): number {
    const pointer = this.m._malloc(bytes);
    this.m.HEAPU8.fill(0, pointer, pointer + bytes);
    this.allocations.push(pointer);
    return pointer;
  }

  string(text: string): number {
    const bytes = Buffer.from(`${text}\0`, 'utf8');
    const pointer = this.alloc(bytes.length);
    this.m.HEAPU8.set(bytes, pointer);
    return pointer;
  }

  check(code: number, what: string): void {
    if (code === 0) return;
    const message = this.alloc(200);
    if (this.system) this.m._pico_getSystemStatusMessage(this.system, code, message);
    const text = Buffer.from(this.m.HEAPU8.subarray(message, message + 200))
      .toString('utf8')
      .replace(/\0.*$/s, '');
    throw new Error(`SVOX Pico could not ${what} (${code}${text ? `: ${text}` : ''}).`);
  }

  async open(model: PicoVoiceModel): Promise<void> {
    const { m } = this;
    const systemRef = this.alloc(4);
    this.check(m._pico_initialize(this.alloc(PICO_MEMORY), PICO_MEMORY, systemRef), 'start');
    this.system = m.getValue(systemRef, '*');
    const voice = this.string(VOICE_NAME);
    this.check(m._pico_createVoiceDefinition(this.system, voice), 'create a voice');
    for (const file of [model.textAnalysis, model.signalGeneration]) {
      const virtual = `/${path.basename(file)}`;
      m.FS.writeFile(virtual, await readFile(file));
      const resourceRef = this.alloc(4);
      this.check(m._pico_loadResource(this.system, this.string(virtual), resourceRef), `load ${path.basename(file)}`);
      const name = this.alloc(32);
      this.check(m._pico_getResourceName(this.system, m.getValue(resourceRef, '*'), name), 'name a resource');
      this.check(m._pico_addResourceToVoiceDefinition(this.system, voice, name), 'add a resource');
    }
    const engineRef = this.alloc(4);
    this.check(m._pico_newEngine(this.system, voice, engineRef), 'start its engine');
    this.engine = m.getValue(engineRef, '*');
  }

  synthesize(text: string): Int16Array {
    const { m } = this;
    const bytes = Buffer.from(`${text}\0`, 'utf8');
    const input = m._malloc(bytes.length);
    const output = m._malloc(4096);
    const counters = m._malloc(8);
    const parts: Int16Array[] = [];
    try {
      m.HEAPU8.set(bytes, input);
      for (let offset = 0; offset < bytes.length;) {
        const size = Math.min(bytes.length - offset, 32_767);
        this.check(m._pico_putTextUtf8(this.engine, input + offset, size, counters), 'take the text');
        offset += m.getValue(counters, 'i16');
        for (;;) {
          const status = m._pico_getData(this.engine, output, 4096, counters, counters + 2);
          const received = m.getValue(counters, 'i16');
          if (received > 0) parts.push(new Int16Array(m.HEAPU8.slice(output, output + received).buffer));
          if (status === STEP_IDLE) break;
          if (status !== STEP_BUSY) this.check(status, 'synthesize');
        }
      }
    } finally {
      for (const pointer of [input, output, counters]) m._free(pointer);
    }
    return concatSamples(parts);
  }
}

let modulePromise: Promise<() => Promise<PicoModule>> | undefined;

export async function openPicoEngine(voice: TtsVoiceRef, settings: EngineSettings): Promise<OpenedEngine> {
  const model = voice.model as PicoVoiceModel | undefined;
  const missing = [model?.textAnalysis, model?.signalGeneration].filter((file) => !file || !existsSync(file));
  if (!model || missing.length > 0) {
    throw new UserFacingError(
      `The SVOX Pico voice ${voice.name ?? voice.engineVoiceId} is not installed: its lingware ${missing.join(', ') || 'files'} is missing.`,
    );
  }
  modulePromise ??= import('@echogarden/svoxpico-wasm').then((loaded) => loaded.default);
  // A module instance per voice: Pico keeps its state in the module's memory.
  const session = new PicoSession(await (await modulePromise)());
  try {
    await session.open(model);
  } catch (error) {
    throw new UserFacingError(
      `The SVOX Pico voice ${voice.name ?? voice.engineVoiceId} cannot be loaded: ${(error as Error).message}`,
    );
  }
  const level = Math.round(100 * settings.speed);
  return {
    engine: {
      backend: 'svox-pico',
      sampleRate: PICO_SAMPLE_RATE,
      nativeSpeed: true,
      synthesize: async (text) => session.synthesize(`<speed level="${level}">${text.replace(/[<>]/g, ' ')}</speed>`),
    },
    notes: { language: null, steps: null, guidanceScale: null },
  };
}
