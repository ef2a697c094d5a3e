/**
 * What a kept-ready engine process does before its first task, so that task runs as fast as the second:
 * it speaks a few sentences with espeak-ng (the default voices' engine) through the worker's whole TTS path
 * (the task check included) into a scratch folder, which loads espeak-ng's WebAssembly, starts the pooled audio thread and compiles what the
 * audio chain runs; and it loads the transcription code. Models are not loaded: which one the first job
 * needs is not known, and they cost memory.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TtsTask } from '../engine-api/protocol';

const SENTENCE =
  'The speech engine is ready. It speaks a few sentences before the first job, so that job runs as fast as the next. '.repeat(
    3,
  );

/** `run`: the worker's own way of running a task (its check included), so the first job finds all of it loaded. */
export async function warmUp(run: (task: TtsTask) => Promise<unknown>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'speech-studio-warm-'));
  try {
    const textPath = path.join(dir, 'text.txt');
    await writeFile(textPath, SENTENCE);
    const task: TtsTask = {
      kind: 'tts',
      textPath,
      outputPath: path.join(dir, 'out.wav'),
      voice: { engine: 'espeak-ng', engineVoiceId: 'gmw/en-US', languageCode: 'en-US' },
      options: {
        voiceId: '00000000-0000-4000-8000-000000000000',
        language: 'en-US',
        inputFormat: 'txt',
        outputFormat: 'wav',
        sampleRate: 24_000,
        bitrateKbps: null,
        audioChannels: 'mono',
        steps: 0,
        guidanceScale: 0,
        speed: 1,
        duration: null,
        denoise: false,
        preprocessPrompt: true,
        postprocessOutput: true,
        trimSilence: true,
      },
    };
    await run(task);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  await import('./stt/run-stt');
}
