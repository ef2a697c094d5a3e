/**
 * The job core for one command-line run (the audiobook export) on a data directory, without HTTP: the
 * engine host and the job service, with a store of its own in a temporary folder, so a server running on
 * the same data directory keeps its store to itself (and never sees this run's jobs as its own to recover).
 * The data directory still gives the lexicon, the voices, the caches and the job folders.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { compileValidators, type Validators } from '../contract/validation';
import type { EngineConfig } from '../engine-api/engine-config';
import { EngineHost } from '../jobs/engine-host';
import { JobService } from '../jobs/job-service';
import { JobStore } from '../jobs/store';
import type { VerifyTestHooks } from '../jobs/verify-admission';
import type { Logger } from '../util/log';
import { createVoiceLibrary, type VoiceLibrary } from '../voices/library';
import { defaultEngineWorkerPath } from './local-server';

export interface CliJobCore {
  jobs: JobService;
  engine: EngineHost;
  voices: VoiceLibrary;
  validators: Validators;
  /** The test hooks the entry read (never set in use). */
  testHooks(): VerifyTestHooks;
  /** Ends the engine and removes the run's store. */
  close(): Promise<void>;
}

/** `engineConfig`: the configuration the entry built (src/config/engine-environment.ts), handed to each engine process. */
export async function openCliJobCore(options: {
  dataDir: string;
  log: Logger;
  engineConfig: EngineConfig;
  testHooks?: VerifyTestHooks;
  engineWorkerPath?: string;
}): Promise<CliJobCore> {
  const { dataDir, log } = options;
  const storeDir = await mkdtemp(path.join(os.tmpdir(), 'speech-studio-cli-'));
  try {
    const store = await JobStore.open(path.join(storeDir, 'jobs.json'), log);
    const engine = new EngineHost({
      workerPath: options.engineWorkerPath ?? defaultEngineWorkerPath(),
      log,
      config: options.engineConfig,
    });
    const jobs = new JobService({ dataDir, store, engine, log, capacity: 1, maxFinishedJobs: 100 });
    const voices = createVoiceLibrary({ dataDir });
    return {
      jobs,
      engine,
      voices,
      validators: compileValidators(),
      testHooks: () => options.testHooks ?? {},
      close: async () => {
        voices.close();
        await jobs.shutdown();
        await rm(storeDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(storeDir, { recursive: true, force: true });
    throw error;
  }
}
