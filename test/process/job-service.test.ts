/**
 * The job service when the store cannot write: the store is the real one, only its journal's appends fail
 * (as on a disk that is full or gone), and the engine is a scripted worker, so no speech is made.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { compileValidators } from '../../src/contract/validation';
import { EngineHost } from '../../src/jobs/engine-host';
import { JobService } from '../../src/jobs/job-service';
import type { Journal, JournalEntry } from '../../src/jobs/journal';
import { JobStore } from '../../src/jobs/store';
import type { JobRecord } from '../../src/jobs/types';
import { silentLogger, type Logger } from '../../src/util/log';
import { voiceIdFor } from '../../src/voices/voice-id';
import { waitFor } from '../helpers/server';
import { tempDir } from '../helpers/temp';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';

const SCRIPTED_ENGINE = path.join(__dirname, '..', 'helpers', 'scripted-engine.cjs');
const checked = compileValidators().ttsRequest({ voiceId: voiceIdFor('espeak-ng', 'gmw/en-US'), text: 'Hello.' });
if (!checked.ok) throw new Error(checked.message);
const request = checked.value;
const voice = { engine: 'espeak-ng' as const, engineVoiceId: 'gmw/en-US', languageCode: 'en-US' };

describe('JobService when the store cannot write', () => {
  let dir: string;
  let store: JobStore;
  let engine: EngineHost;
  let jobs: JobService;
  let errors: string[];
  /** Which journal writes fail, by the entry they carry. */
  let failWrite: (entry: JournalEntry) => boolean;

  beforeEach(async () => {
    dir = await tempDir();
    errors = [];
    const log: Logger = { ...silentLogger, error: (message) => errors.push(message) };
    store = await JobStore.open(path.join(dir, 'jobs.json'), log);
    const journal = (store as unknown as { journal: Journal }).journal;
    const append = journal.append.bind(journal);
    failWrite = () => false;
    journal.append = (entries) =>
      entries.some(failWrite)
        ? Promise.reject(Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' }))
        : append(entries);
    engine = new EngineHost({ workerPath: SCRIPTED_ENGINE, log, config: () => engineConfigFromEnvironment() });
    jobs = new JobService({ dataDir: dir, store, engine, log, capacity: 1, maxFinishedJobs: 100 });
    await jobs.recover();
  });
  afterEach(async () => {
    failWrite = () => false;
    await jobs.shutdown();
    await rm(dir, { recursive: true, force: true });
  });

  const ended = (id: string): Promise<JobRecord> =>
    waitFor(
      `job ${id} to end`,
      async () => jobs.get(id)!,
      (job) => !['queued', 'loading_model', 'processing'].includes(job.status),
      5000,
    );

  it('fails a job whose start could not be saved, with a sentence, and frees its place in the queue', async () => {
    failWrite = (entry) => 'put' in entry && entry.put.status === 'loading_model';
    const job = await jobs.createTtsJob({ origin: 'api', request, voice }, jobs.reserve('api'));
    const failed = await ended(job.id);
    assert.equal(failed.status, 'failed');
    assert.match(
      failed.error ?? '',
      /^The job could not start \(EIO: i\/o error, write\)\. Check that .* data directory is writable and has free space/,
    );
    assert.ok(
      errors.some((line) => line.includes(job.id)),
      'the log says which job',
    );

    failWrite = () => false;
    const next = await jobs.createTtsJob({ origin: 'api', request, voice }, jobs.reserve('api'));
    assert.equal(
      (await ended(next.id)).status,
      'succeeded',
      'the queue runs on, with the place the failed job gave back',
    );
    const reopened = await JobStore.open(path.join(dir, 'jobs.json'), silentLogger);
    assert.equal(reopened.get(job.id)?.status, 'failed', 'the failure is on disk');
  });

  it('ends the job failed in memory and frees its place when the store can save nothing after the job was created', async () => {
    failWrite = (entry) => 'put' in entry && entry.put.status !== 'queued';
    const job = await jobs.createTtsJob({ origin: 'api', request, voice }, jobs.reserve('api'));
    const failed = await ended(job.id);
    assert.equal(failed.status, 'failed');
    assert.match(failed.error ?? '', /^The job could not start \(EIO/);
    assert.ok(
      errors.some((line) => /could not be marked failed either/.test(line)),
      errors.join('\n'),
    );
    jobs.reserve('api').release(); // would throw QueueFullError if the failed job still held the only place
  });
});
