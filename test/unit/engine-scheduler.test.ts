import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { engineConfigFromEnvironment, engineLimitsFrom } from '../../src/config/engine-environment';
import {
  defaultEngineLimits,
  EngineScheduler,
  EngineTaskWithdrawnError,
  INTERACTIVE_GRACE_MS,
  type EngineLimits,
  type EnginePriority,
  type SchedulerClock,
  type StartedTask,
} from '../../src/jobs/engine-scheduler';
import { taskPlace } from '../../src/jobs/task-places';
import { cacheLimits } from '../../src/util/data-dir-caches';

/** A task this test finishes by hand, recording when it started. */
function manualTask(started: string[], name: string): { start: () => StartedTask<string>; finish(): void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    start: () => {
      started.push(name);
      return { result: done.then(() => name), freed: done };
    },
    finish: () => finish(),
  };
}

/** A task this test finishes by hand that, like an engine process, stops when asked to yield (counting its starts). */
function yieldingTask(
  started: string[],
  name: string,
): { start: (yieldSignal: AbortSignal) => StartedTask<string>; finish(): void } {
  let finish = (): void => undefined;
  return {
    start: (yieldSignal) => {
      started.push(name);
      const done = new Promise<void>((resolve, reject) => {
        finish = resolve;
        yieldSignal.addEventListener('abort', () => reject(new Error(`${name} was stopped`)), { once: true });
      });
      return { result: done.then(() => name), freed: done.catch(() => undefined) };
    },
    finish: () => finish(),
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The scheduler's clock on node:test's mock timers (enabled around each test): time moves only when a test ticks it. */
const mockClock: SchedulerClock = { now: () => Date.now(), setTimeout: (run, ms) => setTimeout(run, ms) };
const schedulerWith = (limits?: EngineLimits): EngineScheduler => new EngineScheduler(limits, mockClock);

describe('the engine scheduler', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 }));
  afterEach(() => mock.timers.reset());

  it('derives its default cap from the core count: one job process plus one interactive process on 2 cores', () => {
    assert.deepEqual(defaultEngineLimits(1), { maxProcesses: 2, maxJobProcesses: 1 });
    assert.deepEqual(defaultEngineLimits(2), { maxProcesses: 2, maxJobProcesses: 1 });
    assert.deepEqual(defaultEngineLimits(4), { maxProcesses: 4, maxJobProcesses: 3 });
    assert.deepEqual(defaultEngineLimits(64), { maxProcesses: 4, maxJobProcesses: 3 });
  });

  it('refuses limits that could never run a job', () => {
    assert.throws(() => schedulerWith({ maxProcesses: 0, maxJobProcesses: 1 }), TypeError);
    assert.throws(() => schedulerWith({ maxProcesses: 2, maxJobProcesses: 3 }), TypeError);
    assert.throws(() => schedulerWith({ maxProcesses: 2, maxJobProcesses: 1.5 }), TypeError);
  });

  it('starts waiting tasks interactive first, then analysis, then jobs, each in arrival order', async () => {
    const scheduler = schedulerWith({ maxProcesses: 1, maxJobProcesses: 1 });
    const started: string[] = [];
    const tasks = new Map<string, { finish(): void }>();
    const results: Promise<string>[] = [];
    const queue = (priority: EnginePriority, name: string): void => {
      const task = manualTask(started, name);
      tasks.set(name, task);
      results.push(scheduler.schedule(priority, undefined, task.start));
    };
    queue('job', 'blocker');
    queue('job', 'job 1');
    queue('analysis', 'waveform');
    queue('job', 'job 2');
    queue('interactive', 'sentence 1');
    queue('interactive', 'sentence 2');
    assert.equal(scheduler.queued, 5);
    // One slot: finishing the task that runs lets exactly the next one in (the waveform once speech has been
    // quiet for the grace).
    for (let i = 0; i < tasks.size; i++) {
      await settle();
      if (started.length <= i) {
        // Only the waveform waits, for speech to have been quiet for the grace (not a moment less).
        mock.timers.tick(INTERACTIVE_GRACE_MS - 1);
        await settle();
        assert.equal(started.length, i, 'the waveform waits out the grace');
        mock.timers.tick(2);
        await settle();
      }
      assert.equal(started.length, i + 1, 'one task at a time');
      tasks.get(started[i])!.finish();
    }
    await Promise.all(results);
    assert.deepEqual(started, ['blocker', 'sentence 1', 'sentence 2', 'waveform', 'job 1', 'job 2']);
  });

  it('keeps a slot free of jobs: with two processes, a second job waits while a sentence runs beside the first', async () => {
    const scheduler = schedulerWith({ maxProcesses: 2, maxJobProcesses: 1 });
    const started: string[] = [];
    const job1 = manualTask(started, 'job 1');
    const job2 = manualTask(started, 'job 2');
    const sentence = manualTask(started, 'sentence');
    const results = [
      scheduler.schedule('job', undefined, job1.start),
      scheduler.schedule('job', undefined, job2.start),
      scheduler.schedule('interactive', undefined, sentence.start),
    ];
    await settle();
    assert.deepEqual(started, ['job 1', 'sentence']);
    assert.equal(scheduler.active, 2);
    sentence.finish();
    await settle();
    assert.deepEqual(started, ['job 1', 'sentence'], 'the free slot is not a job slot');
    job1.finish();
    await settle();
    assert.deepEqual(started, ['job 1', 'sentence', 'job 2']);
    job2.finish();
    await Promise.all(results);
  });

  it('gives interactive speech the process an analysis task borrowed beside a job: the analysis yields and runs again after the reading', async () => {
    const scheduler = schedulerWith({ maxProcesses: 2, maxJobProcesses: 1 });
    const started: string[] = [];
    const job = manualTask(started, 'job');
    const waveform = yieldingTask(started, 'waveform');
    const sentence = manualTask(started, 'sentence');
    const jobDone = scheduler.schedule('job', undefined, job.start);
    const waveformDone = scheduler.schedule('analysis', undefined, waveform.start);
    await settle();
    assert.deepEqual(started, ['job', 'waveform'], 'the waveform does not wait for the job');
    const sentenceDone = scheduler.schedule('interactive', undefined, sentence.start);
    await settle();
    await settle();
    assert.deepEqual(started, ['job', 'waveform', 'sentence'], 'the sentence did not wait for the waveform');
    assert.equal(scheduler.reclaimed, 1);
    assert.equal(scheduler.active, 2, 'never more than the cap');
    sentence.finish();
    await sentenceDone;
    await settle();
    assert.deepEqual(
      started,
      ['job', 'waveform', 'sentence'],
      'between sentences, the waveform keeps off the speech process',
    );
    mock.timers.tick(INTERACTIVE_GRACE_MS - 1);
    await settle();
    assert.deepEqual(
      started,
      ['job', 'waveform', 'sentence'],
      'a moment before the grace ends, the waveform still waits',
    );
    mock.timers.tick(2);
    await settle();
    assert.deepEqual(
      started,
      ['job', 'waveform', 'sentence', 'waveform'],
      'the waveform came back once speech had been quiet for the grace',
    );
    waveform.finish();
    assert.equal(await waveformDone, 'waveform', 'the waveform that yielded still answers its caller');
    job.finish();
    await jobDone;
  });

  it('withdraws, and never restarts, an analysis task whose caller gave up while it was yielding', async () => {
    const scheduler = schedulerWith({ maxProcesses: 2, maxJobProcesses: 1 });
    const started: string[] = [];
    const job = manualTask(started, 'job');
    const sentence = manualTask(started, 'sentence');
    const caller = new AbortController();
    let stop = (): void => undefined;
    // A waveform whose process takes a moment to end after it is asked to yield; its caller gives up meanwhile.
    const waveformDone = scheduler.schedule('analysis', caller.signal, (yieldSignal) => {
      started.push('waveform');
      const ended = new Promise<void>((resolve) => (stop = resolve));
      yieldSignal.addEventListener('abort', () => caller.abort(), { once: true });
      return { result: ended.then(() => Promise.reject(new Error('stopped'))), freed: ended };
    });
    const jobDone = scheduler.schedule('job', undefined, job.start);
    await settle();
    const sentenceDone = scheduler.schedule('interactive', undefined, sentence.start);
    await settle();
    stop();
    await assert.rejects(waveformDone, EngineTaskWithdrawnError);
    await settle();
    assert.deepEqual(started, ['waveform', 'job', 'sentence']);
    sentence.finish();
    job.finish();
    await Promise.all([sentenceDone, jobDone]);
    assert.equal(scheduler.queued, 0, 'the waveform is not waiting to run again');
  });

  it('lets analysis take the second process beside a running sentence', async () => {
    const scheduler = schedulerWith({ maxProcesses: 2, maxJobProcesses: 1 });
    const started: string[] = [];
    const sentence = manualTask(started, 'sentence');
    const waveform = yieldingTask(started, 'waveform');
    const results = [
      scheduler.schedule('interactive', undefined, sentence.start),
      scheduler.schedule('analysis', undefined, waveform.start),
    ];
    await settle();
    assert.deepEqual(started, ['sentence', 'waveform']);
    sentence.finish();
    waveform.finish();
    await Promise.all(results);
  });

  it('runs one interactive task at a time, so sentences keep one warm process', async () => {
    const scheduler = schedulerWith({ maxProcesses: 4, maxJobProcesses: 3 });
    const started: string[] = [];
    const a = manualTask(started, 'a');
    const b = manualTask(started, 'b');
    const results = [
      scheduler.schedule('interactive', undefined, a.start),
      scheduler.schedule('interactive', undefined, b.start),
    ];
    await settle();
    assert.deepEqual(started, ['a']);
    a.finish();
    await settle();
    assert.deepEqual(started, ['a', 'b']);
    b.finish();
    await Promise.all(results);
  });

  it('withdraws a waiting task when its signal aborts, and it never starts', async () => {
    const scheduler = schedulerWith({ maxProcesses: 1, maxJobProcesses: 1 });
    const started: string[] = [];
    const running = manualTask(started, 'running');
    const withdrawn = manualTask(started, 'withdrawn');
    const after = manualTask(started, 'after');
    const cancel = new AbortController();
    const first = scheduler.schedule('job', undefined, running.start);
    const second = scheduler.schedule('job', cancel.signal, withdrawn.start);
    const third = scheduler.schedule('job', undefined, after.start);
    cancel.abort();
    await assert.rejects(second, EngineTaskWithdrawnError);
    assert.equal(scheduler.queued, 1);
    running.finish();
    await first;
    await settle();
    after.finish();
    await third;
    assert.deepEqual(started, ['running', 'after']);
  });

  it('runs J jobs at once when the job lane is J, oldest first, and starts the next as one ends', async () => {
    const scheduler = schedulerWith({ maxProcesses: 3, maxJobProcesses: 2 });
    const started: string[] = [];
    const jobs = ['job 1', 'job 2', 'job 3', 'job 4'].map((name) => manualTask(started, name));
    const results = jobs.map((job) => scheduler.schedule('job', undefined, job.start));
    await settle();
    assert.deepEqual(started, ['job 1', 'job 2']);
    assert.equal(scheduler.activeFor('job'), 2);
    jobs[1].finish();
    await settle();
    assert.deepEqual(started, ['job 1', 'job 2', 'job 3']);
    for (const job of jobs) job.finish();
    await Promise.all(results);
    assert.deepEqual(started, ['job 1', 'job 2', 'job 3', 'job 4']);
  });

  it('orders one lane by rank, then arrival: a committed live decode goes before live looks that asked earlier', async () => {
    const scheduler = schedulerWith({ maxProcesses: 2, maxJobProcesses: 1 });
    const started: string[] = [];
    const names = ['sentence', 'look 1', 'look 2', 'final', 'sentence 2'];
    const places = [
      taskPlace({ kind: 'speak' }),
      taskPlace({ kind: 'live-window', decode: false }),
      taskPlace({ kind: 'live-window', decode: true, preview: true }),
      taskPlace({ kind: 'live-window', decode: true }),
      taskPlace({ kind: 'speak' }),
    ];
    const tasks = names.map((name) => manualTask(started, name));
    const results = tasks.map((task, i) => scheduler.schedule(places[i], undefined, task.start));
    assert.equal(scheduler.queuedOf('live-window'), 3, 'waiting tasks are counted by kind');
    for (let i = 0; i < tasks.length; i++) {
      await settle();
      assert.equal(started.length, i + 1, 'one interactive task at a time');
      tasks[names.indexOf(started[i])].finish();
    }
    await Promise.all(results);
    assert.deepEqual(started, ['sentence', 'final', 'sentence 2', 'look 1', 'look 2']);
  });

  it('refuses at once a task whose signal already aborted, and an unknown priority', async () => {
    const scheduler = schedulerWith();
    const started: string[] = [];
    await assert.rejects(
      scheduler.schedule('job', AbortSignal.abort(), manualTask(started, 'x').start),
      EngineTaskWithdrawnError,
    );
    assert.throws(
      () => scheduler.schedule('urgent' as EnginePriority, undefined, manualTask(started, 'y').start),
      TypeError,
    );
    assert.deepEqual(started, []);
  });

  it('frees the slot of a task whose start throws, and passes the error on', async () => {
    const scheduler = schedulerWith({ maxProcesses: 1, maxJobProcesses: 1 });
    await assert.rejects(
      scheduler.schedule('job', undefined, () => {
        throw new Error('no engine');
      }),
      /no engine/,
    );
    assert.equal(
      await scheduler.schedule('job', undefined, () => ({ result: Promise.resolve('next'), freed: Promise.resolve() })),
      'next',
    );
  });
});

describe('where a task waits: its kind decides its lane', () => {
  it("puts jobs' work in the job lane, looks at media in analysis, and speech in the interactive lane", () => {
    for (const kind of [
      'tts',
      'stt',
      'align',
      'book',
      'translate',
      'dub',
      'embed-subtitles',
      'cast-attribute',
      'llm-generate',
      'speaker-embedding',
    ] as const)
      assert.equal(taskPlace({ kind }).lane, 'job', kind);
    for (const kind of ['waveform', 'speech-regions', 'shot-changes', 'voice-reference'] as const)
      assert.equal(taskPlace({ kind }).lane, 'analysis', kind);
    assert.deepEqual(taskPlace({ kind: 'speak' }), { lane: 'interactive', rank: 0, label: 'speak' });
    assert.deepEqual(
      taskPlace({ kind: 'live-window', decode: true }),
      { lane: 'interactive', rank: 0, label: 'live-window' },
      'a committed utterance',
    );
    assert.deepEqual(
      taskPlace({ kind: 'live-window', decode: true, preview: true }),
      { lane: 'interactive', rank: 1, label: 'live-window' },
      'a partial look',
    );
    assert.deepEqual(
      taskPlace({ kind: 'live-window', decode: false }),
      { lane: 'interactive', rank: 1, label: 'live-window' },
      'turn detection',
    );
  });
});

describe('the engine configuration from the environment', () => {
  it('reads the process cap as N or N/J, and refuses anything else at start', () => {
    assert.deepEqual(engineLimitsFrom('3'), { maxProcesses: 3, maxJobProcesses: 2 });
    assert.deepEqual(engineLimitsFrom('4/1'), { maxProcesses: 4, maxJobProcesses: 1 });
    assert.equal(engineLimitsFrom(''), undefined);
    assert.throws(() => engineLimitsFrom('two'), /SPEECH_STUDIO_ENGINE_PROCESSES/);
    assert.throws(() => engineLimitsFrom('2/3'), TypeError);
  });

  it('builds one object from the variables, with flags and settings over them', () => {
    const config = engineConfigFromEnvironment(
      {
        PATH: '/bin',
        SPEECH_STUDIO_FFMPEG: 'wasm',
        SPEECH_STUDIO_THREADS: '3',
        SPEECH_STUDIO_TTS_THREAD: '0',
        SPEECH_STUDIO_ENGINE_PROCESSES: '2/1',
        SPEECH_STUDIO_CACHE_LIMITS: '{"audiobook":{"maxMegabytes":100}}',
        SPEECH_STUDIO_TEST_FIXED_SPEAKER_EMBEDDING: '1',
      },
      { ffmpeg: '/opt/ffmpeg' },
    );
    assert.deepEqual(config, {
      ffmpeg: '/opt/ffmpeg',
      ffprobe: undefined,
      searchPath: '/bin',
      sttThreads: 3,
      ttsThread: false,
      vadModel: undefined,
      slowdown: 1,
      limits: { maxProcesses: 2, maxJobProcesses: 1 },
      cacheLimits: cacheLimits({ audiobook: { maxMegabytes: 100 } }),
      fixedSpeakerEmbedding: true,
    });
    // A broken cache variable leaves the defaults (the host reports it); no hook without the variable.
    const plain = engineConfigFromEnvironment({ SPEECH_STUDIO_CACHE_LIMITS: '{broken' });
    assert.deepEqual(plain.cacheLimits, cacheLimits());
    assert.equal('fixedSpeakerEmbedding' in plain, false);
  });
});
