/**
 * What a kept-ready engine process loads before its first task, so that task runs as fast as the second:
 * the code of synthesis and transcription, and espeak-ng's WebAssembly (the default voices' engine, 0.5–0.8 s
 * to load). Models are not loaded: which one the first job needs is not known, and they cost memory.
 */
export async function warmUp(): Promise<void> {
  await import('./tts/run-tts');
  const { listEspeakVoices } = await import('./tts/synthesizers/espeak');
  await listEspeakVoices();
  await import('./stt/run-stt');
}
