/**
 * Runs one TTS job in the engine process: text file → espeak-ng, chunk by chunk → WAV file.
 * Audio streams straight to disk, so memory stays flat however long the text is.
 */
import { readFile, rename, rm } from 'node:fs/promises';
import { PcmToWav } from '../audio/pcm-to-wav';
import { concatSamples } from '../audio/samples';
import { firstAudibleIndex } from '../audio/silence-trimmer';
import { UserFacingError, type EnginePhase, type ProgressReporter, type TaskOutcome, type TtsTask } from '../protocol';
import { ESPEAK_DEFAULT_RATE, espeakRateForSpeed, openEspeakVoice } from './espeak';
import { splitIntoChunks } from './text-chunks';

/**
 * Silence between chunks, at espeak's default rate. Each espeak call ends almost without a pause, so
 * without it the last sentence of one chunk would run into the next; 0.3 s is espeak's own pause after
 * a full stop at 175 words per minute.
 */
const CHUNK_PAUSE_SECONDS = 0.3;
const SYNTHESIS_START = 5;
const SYNTHESIS_END = 95;

export async function runTtsTask(task: TtsTask, report: ProgressReporter): Promise<TaskOutcome> {
  const { options } = task;
  const text = await readFile(task.textPath, 'utf8');
  const chunks = splitIntoChunks(text);
  if (chunks.length === 0) throw new UserFacingError('The text produced no speech: it is empty or only whitespace.');

  const rate = espeakRateForSpeed(options.speed);
  const voice = await openEspeakVoice(task.voice.engineVoiceId, rate);
  const channels = options.audioChannels === 'stereo' ? 2 : 1;
  const pause = new Int16Array(Math.round((voice.sampleRate * CHUNK_PAUSE_SECONDS * ESPEAK_DEFAULT_RATE) / rate));
  const progress = risingOnly(report);
  const partialPath = `${task.outputPath}.partial`;
  let output: PcmToWav | undefined;
  try {
    output = await PcmToWav.create(partialPath, {
      inputRate: voice.sampleRate,
      outputRate: options.sampleRate,
      channels,
      trimSilence: options.trimSilence,
    });
    progress('synthesizing', SYNTHESIS_START);
    const totalCharacters = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    let doneCharacters = 0;
    let heardSpeech = false;
    for (const [index, chunk] of chunks.entries()) {
      const samples = concatSamples(voice.synthesize(chunk));
      heardSpeech ||= firstAudibleIndex(samples) >= 0;
      if (index > 0) await output.write(pause);
      await output.write(samples);
      doneCharacters += chunk.length;
      progress('synthesizing', SYNTHESIS_START + ((SYNTHESIS_END - SYNTHESIS_START) * doneCharacters) / totalCharacters);
    }
    if (!heardSpeech) {
      throw new UserFacingError('The text produced no speech: espeak-ng found nothing it could pronounce in it.');
    }
    progress('encoding', 97);
    const { bytes, frames } = await output.finish();
    await rename(partialPath, task.outputPath);
    progress('encoding', 99);
    return {
      backend: 'espeak-ng',
      result: {
        mediaType: 'audio/wav',
        outputFormat: 'wav',
        sampleRate: options.sampleRate,
        audioChannels: options.audioChannels,
        durationSeconds: Math.round((frames / options.sampleRate) * 1000) / 1000,
        bytes,
        characters: countCodePoints(text),
        chunks: chunks.length,
      },
    };
  } catch (error) {
    await output?.abort();
    await rm(partialPath, { force: true });
    throw error;
  }
}

/** Forwards progress to `report` only when it rose (by at least 0.1), rounded to one decimal. */
function risingOnly(report: ProgressReporter): ProgressReporter {
  let last = -Infinity;
  return (phase: EnginePhase, value: number) => {
    const rounded = Math.round(value * 10) / 10;
    if (rounded <= last) return;
    last = rounded;
    report(phase, rounded);
  };
}

/** Characters as the API counts them (JSON Schema `maxLength` counts code points). */
function countCodePoints(text: string): number {
  return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
}
