/**
 * The `embed` job kind in the job core: queued while the job lane is busy, run from its stored record after a
 * restart, interrupted when the service stops under it, and never a seed job. The engine is a scripted worker
 * (no ffmpeg): it answers at once, and holds a task whose output path names `hold`.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { EngineTask } from '../../src/engine-api/protocol';
import { EngineHost } from '../../src/jobs/engine-host';
import { JobService } from '../../src/jobs/job-service';
import { embedKind } from '../../src/jobs/kinds/embed';
import { JobStore } from '../../src/jobs/store';
import { isLocalOnlyKind, toPublicJob, type JobRecord } from '../../src/jobs/types';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';
import { silentLogger } from '../../src/util/log';
import { waitFor } from '../helpers/server';
import { tempDir } from '../helpers/temp';

const SCRIPTED_ENGINE = path.join(__dirname, '..', 'helpers', 'scripted-engine.cjs');
const LIMITS = { maxProcesses: 2, maxJobProcesses: 1 };

describe('an embed job', () => {
  let dir: string;
  let jobs: JobService;
  let worker: string;
  let subtitles: string;
  const services: JobService[] = [];

  /** A job service on the data directory's store, as a start of Speech Studio makes it. */
  async function start(): Promise<JobService> {
    const store = await JobStore.open(path.join(dir, 'jobs.json'), silentLogger);
    const engine = new EngineHost({
      workerPath: worker,
      log: silentLogger,
      config: () => engineConfigFromEnvironment(),
      limits: LIMITS,
    });
    const service = new JobService({
      dataDir: dir,
      store,
      engine,
      log: silentLogger,
      capacity: 1,
      maxFinishedJobs: 100,
    });
    await service.recover();
    services.push(service);
    return service;
  }

  beforeEach(async () => {
    dir = await tempDir('speech-embed-job-');
    // The scripted engine, holding an embed task whose copy is named `hold…` (so a job stays running).
    const scripted = await readFile(SCRIPTED_ENGINE, 'utf8');
    worker = path.join(dir, 'holding-engine.cjs');
    await writeFile(
      worker,
      scripted.replace(
        'if (message.task?.hold) {',
        "if (message.task?.hold || /hold/.test(message.task?.outputPath ?? '')) {",
      ),
    );
    // The scripted engine never reads the video; the job core checks only that it is a file of the user's.
    await writeFile(path.join(dir, 'talk.mp4'), 'a video the scripted engine does not read');
    subtitles = path.join(dir, 'talk.de.srt');
    await writeFile(subtitles, '1\n00:00:00,200 --> 00:00:00,900\nHallo.\n');
    jobs = await start();
  });
  afterEach(async () => {
    for (const service of services.splice(0)) await service.shutdown();
    await rm(dir, { recursive: true, force: true });
  });

  const ended = (service: JobService, id: string): Promise<JobRecord> =>
    waitFor(
      `job ${id} to end`,
      async () => service.get(id)!,
      (job) => !['queued', 'loading_model', 'processing'].includes(job.status),
      5000,
    );
  const embed = (service: JobService, out: string): Promise<JobRecord> =>
    service.create(embedKind, {
      origin: 'editor',
      video: path.join(dir, 'talk.mp4'),
      subtitles,
      out: path.join(dir, out),
    });

  /** Holds the one process of the job lane with a bare task, as casting a book does, until the returned controller aborts. */
  async function holdJobLane(service: JobService): Promise<AbortController> {
    const release = new AbortController();
    let arrived!: () => void;
    const running = new Promise<void>((resolve) => (arrived = resolve));
    const engine = (service as unknown as { options: { engine: EngineHost } }).options.engine;
    void engine
      .run('cast', { kind: 'cast-attribute', hold: true } as unknown as EngineTask, {
        signal: release.signal,
        onProgress: () => arrived(),
      })
      .catch(() => undefined);
    await running;
    return release;
  }

  it('created while another task holds the job lane, stays queued (not loading_model) until the lane is free, then runs', async () => {
    const release = await holdJobLane(jobs);
    const statuses: string[] = [];
    let released = false;
    jobs.on('change', (job: JobRecord) => {
      if (job.kind === 'embed') statuses.push(`${job.status}${released ? '' : ' (lane busy)'}`);
    });
    const job = await embed(jobs, 'talk.subtitled.mp4');
    assert.equal(job.status, 'queued');
    assert.equal(job.name, 'Embed talk.de.srt in talk.subtitled.mp4');
    assert.equal(jobs.get(job.id)?.status, 'queued');
    released = true;
    release.abort();
    assert.equal((await ended(jobs, job.id)).status, 'succeeded');
    assert.ok(
      statuses.every((status) => status === 'queued (lane busy)' || !status.includes('lane busy')),
      statuses.join(', '),
    );
    assert.ok(statuses.includes('loading_model') && statuses.at(-1) === 'succeeded', statuses.join(', '));
  });

  it('keeps its input in the store and the job folder: the language from the file name, the subtitles copied', async () => {
    const job = await embed(jobs, 'talk.subtitled.mkv');
    assert.ok(job.kind === 'embed');
    assert.equal(job.input.language, 'ger');
    const task = jobs.files.task(job);
    assert.equal(task.kind, 'embed-subtitles');
    assert.ok(task.kind === 'embed-subtitles' && task.subtitlesPath === jobs.files.file(job.id, 'subtitles.srt'));
    assert.equal(task.outputPath, path.join(dir, 'talk.subtitled.mkv'));
    assert.equal((await ended(jobs, job.id)).status, 'succeeded');
  });

  it('refuses before any job what the engine would refuse, with its sentence', async () => {
    await assert.rejects(embed(jobs, 'talk.avi'), /Subtitles can be embedded in .*, not \.avi\./);
    await assert.rejects(
      jobs.create(embedKind, {
        origin: 'cli',
        video: path.join(dir, 'talk.mp4'),
        subtitles: path.join(dir, 'gone.srt'),
        out: path.join(dir, 'x.mp4'),
      }),
      /There is no subtitle file at .*gone\.srt/,
    );
    assert.deepEqual(jobs.list(), []);
  });

  it('is local-only: never a seed job', async () => {
    assert.equal(isLocalOnlyKind('embed'), true);
    const job = await embed(jobs, 'talk.subtitled.mp4');
    assert.throws(() => toPublicJob(job), TypeError);
    await ended(jobs, job.id);
  });

  it('is recovered on restart: a queued one runs from its stored record, a running one is interrupted', async () => {
    const release = await holdJobLane(jobs);
    const running = await embed(jobs, 'hold.mp4');
    release.abort();
    await waitFor(
      'the held embed to run',
      async () => jobs.get(running.id)!,
      (job) => job.status === 'processing',
      5000,
    );
    const queued = await embed(jobs, 'talk.subtitled.webm');
    assert.equal(jobs.get(queued.id)?.status, 'queued');
    await jobs.shutdown();
    services.splice(services.indexOf(jobs), 1);
    assert.ok(existsSync(jobs.files.file(queued.id, 'subtitles.srt')), 'a queued job keeps its copy of the subtitles');

    const again = await start();
    assert.equal(again.get(running.id)?.status, 'interrupted');
    const rerun = await ended(again, queued.id);
    assert.equal(rerun.status, 'succeeded');
    assert.equal(rerun.kind, 'embed');
  });
});
