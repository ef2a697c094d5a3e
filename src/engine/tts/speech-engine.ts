/** Picks the synthesizer adapter of a voice's engine; adapters load lazily, so unused ones cost nothing. */
import type { TtsEngineName, TtsVoiceRef } from '../../engine-api/protocol';
import type { EngineSettings, OpenedEngine } from './synthesizers/synthesizer';

/** Opens the engine of a voice with the job's settings. Engines load lazily, so unused ones cost nothing. */
export async function openSpeechEngine(voice: TtsVoiceRef, settings: EngineSettings): Promise<OpenedEngine> {
  const engine: TtsEngineName = voice.engine;
  switch (engine) {
    case 'espeak-ng':
      return (await import('./synthesizers/espeak-engine')).openEspeakEngine(voice, settings);
    case 'flite':
      return (await import('./synthesizers/flite')).openFliteEngine(voice, settings);
    case 'svox-pico':
      return (await import('./synthesizers/svox-pico')).openPicoEngine(voice, settings);
    case 'sherpa-onnx':
      return (await import('./synthesizers/sherpa-tts')).openSherpaEngine(voice, settings);
  }
}
