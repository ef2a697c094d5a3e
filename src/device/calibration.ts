/**
 * A short speed calibration when a device joins a relay: a sentence of espeak-ng speech and, when a whisper
 * model is installed, the transcription of that speech. The jobs run through the device's own JobService
 * (so the SpeedMeter measures them like any job) and are deleted afterwards.
 */
import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { compileValidators } from '../contract/validation';
import { admitStt, admitTts, checkSttFields, installedSttModels } from '../jobs/admission';
import type { JobService } from '../jobs/job-service';
import type { JobRecord } from '../jobs/types';
import { waitForJobEnd } from '../jobs/wait-for-job';
import { describeThrown, type Logger } from '../util/log';
import type { VoiceLibrary } from '../voices/library';
import { voiceIdFor } from '../voices/voice-id';

/** About four seconds of speech: long enough that start-up costs do not swamp it, short enough to be quick. */
const CALIBRATION_TEXT = 'Speech Studio is measuring how fast this device speaks and listens.';
/** Run first and not measured: it starts the engine process and loads the voice, which jobs usually find done. */
const WARM_UP_TEXT = 'Ready.';
export const CALIBRATION_VOICE = voiceIdFor('espeak-ng', 'gmw/en-US');

export interface CalibrationOptions {
  jobs: JobService;
  voices: VoiceLibrary;
  dataDir: string;
  log: Logger;
  preferredSttModel?: () => string | undefined;
  /** The whole calibration stops after this long (default 8 s); what finished by then counts. */
  budgetMs?: number;
  signal?: AbortSignal;
  /** Told the id of the warm-up job, whose time says nothing about speed. */
  ignore(jobId: string): void;
}

/** Runs one calibration job to its end within the budget, then removes it. */
async function runBounded(jobs: JobService, job: JobRecord, signal: AbortSignal): Promise<JobRecord | undefined> {
  try {
    return await waitForJobEnd(jobs, job.id, signal).catch(() => undefined);
  } finally {
    await jobs.delete(job.id).catch(() => undefined);
  }
}

/** Measures TTS (and STT when possible) once; the SpeedMeter listening on `jobs` records the figures. */
export async function calibrate(options: CalibrationOptions): Promise<void> {
  const { jobs, log } = options;
  // Not AbortSignal.any with AbortSignal.timeout: Node 20 may collect such a timeout signal before it fires.
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(), options.budgetMs ?? 8_000);
  const stop = (): void => budget.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  const { signal } = budget;
  const validators = compileValidators();
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'speech-calibration-'));
  const speak = (text: string) =>
    jobs.createTtsJob({
      origin: 'remote',
      name: 'Relay speed calibration',
      ...admitTts(
        validators,
        { voiceId: CALIBRATION_VOICE, text, outputFormat: 'wav', sampleRate: 16000 },
        options.voices,
      ),
    });
  try {
    if (!options.voices.get(CALIBRATION_VOICE) || options.signal?.aborted) return;
    const warmUp = await speak(WARM_UP_TEXT);
    options.ignore(warmUp.id);
    await runBounded(jobs, warmUp, signal);
    if (signal.aborted) return;
    const tts = await speak(CALIBRATION_TEXT);
    const installed = await installedSttModels(options.dataDir);
    // The speech is the STT calibration's input, so it is copied out before the TTS job is deleted.
    const done = await waitForJobEnd(jobs, tts.id, signal).catch(() => undefined);
    let speech: string | undefined;
    if (done?.status === 'succeeded' && done.outputFile && installed.models.length > 0) {
      speech = path.join(scratch, 'speech.wav');
      await copyFile(jobs.files.file(done.id, done.outputFile), speech).catch(() => (speech = undefined));
    }
    await runBounded(jobs, tts, signal);
    if (!speech || signal.aborted) return;
    const { options: sttOptions, model } = admitStt(
      checkSttFields(validators, { language: 'en', diarizationEnabled: 'false' }),
      installed,
      options.preferredSttModel?.(),
    );
    const input = speech;
    const stt = await jobs.createSttJobWith('remote', async (_id, dir) => {
      await copyFile(input, path.join(dir, 'input.wav'));
      const { size } = await stat(input);
      return {
        options: sttOptions,
        inputFile: 'input.wav',
        originalName: 'calibration.wav',
        bytes: size,
        modelPath: model.path,
        name: 'Relay speed calibration',
      };
    });
    await runBounded(jobs, stt, signal);
  } catch (error) {
    log.warn(`Speed calibration skipped: ${describeThrown(error)}`);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', stop);
    await rm(scratch, { recursive: true, force: true });
  }
}
