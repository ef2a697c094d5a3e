import assert from 'node:assert/strict';
import { promises as fsPromises } from 'node:fs';
import { appendFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { JobStore } from '../../src/jobs/store';
import { transition } from '../../src/jobs/state';
import type { SttOptions } from '../../src/contract/types';
import { compileValidators } from '../../src/contract/validation';
import { JOB_ORIGINS, type JobOrigin, type JobRecord, type SttJobInput, type TtsJobInput } from '../../src/jobs/types';
import { silentLogger, type Logger } from '../../src/util/log';
import { tempDir } from '../helpers/temp';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function storeFile(): Promise<string> {
  const dir = await tempDir();
  dirs.push(dir);
  return path.join(dir, 'jobs.json');
}

const validators = compileValidators();
/** The options of a TTS request as the job service stores them: validated, every default filled in. */
const ttsOptions = (): TtsJobInput['options'] => {
  const checked = validators.ttsRequest({ voiceId: '0f0e0d0c-0b0a-4908-8706-050403020100', text: 'x' });
  assert.ok(checked.ok);
  const { text: _text, ...options } = checked.value;
  return options;
};
const sttOptions = (): SttOptions => {
  const checked = validators.sttOptions({ language: 'en' });
  assert.ok(checked.ok);
  return checked.value;
};

const record = (id: string, origin: JobOrigin = 'api'): JobRecord => ({
  id,
  name: id,
  kind: 'tts',
  status: 'queued',
  progress: 0,
  phase: 'queued',
  backend: null,
  result: null,
  error: null,
  createdAt: 1,
  startedAt: null,
  finishedAt: null,
  origin,
  outputFile: null,
  input: {
    kind: 'tts',
    characters: 1,
    options: ttsOptions(),
    voice: { engine: 'espeak-ng', engineVoiceId: 'en', languageCode: 'en' },
  },
});
const sttRecord = (id: string, origin: JobOrigin): JobRecord =>
  ({
    ...record(id, origin),
    kind: 'stt',
    input: {
      kind: 'stt',
      options: sttOptions(),
      inputFile: 'input.wav',
      originalName: 'talk.wav',
      bytes: 10,
      modelPath: '/models/ggml-base.bin',
    },
  }) as JobRecord;
const finished = (job: JobRecord): JobRecord => ({
  ...job,
  status: 'succeeded',
  progress: 100,
  phase: 'done',
  startedAt: 2,
  finishedAt: 3,
  outputFile: 'output.wav',
});

/** A logger that keeps its error lines, for the store's reports of what it left out. */
function errorLog(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { ...silentLogger, error: (m: string) => errors.push(m), errors };
}
const damagedCopies = async (file: string): Promise<string[]> =>
  (await readdir(path.dirname(file))).filter((n) => n.includes('.damaged-'));

describe('JobStore', () => {
  it('shows a new job or a transition only once it is on disk', async () => {
    const file = await storeFile();
    const store = await JobStore.open(file, silentLogger);
    const inserting = store.insert(record('a'));
    assert.equal(store.get('a'), undefined, 'not visible before the write finished');
    await inserting;
    assert.equal(store.get('a')?.status, 'queued');
    const moving = store.update('a', (j) => transition(j, 'loading_model'));
    assert.equal(store.get('a')?.status, 'queued');
    assert.equal(store.latest('a')?.status, 'loading_model');
    await moving;
    assert.equal(store.get('a')?.status, 'loading_model');
    const reopened = await JobStore.open(file, silentLogger);
    assert.equal(reopened.get('a')?.status, 'loading_model', 'what was shown is on disk');
  });

  it('skips a journal line torn by a crash and keeps every complete one', async () => {
    const file = await storeFile();
    const store = await JobStore.open(file, silentLogger);
    await store.insert(record('t'));
    await store.update('t', (j) => transition(j, 'loading_model'));
    await appendFile(`${file}.journal`, '{"put":{"id":"t","status":"proc');
    const reopened = await JobStore.open(file, silentLogger);
    assert.equal(reopened.get('t')?.status, 'loading_model');
  });

  it('cuts a line torn by a crash before the next append, so the change after the restart is not glued to it', async () => {
    const file = await storeFile();
    const store = await JobStore.open(file, silentLogger);
    await store.insert(record('g'));
    await store.update('g', (j) => transition(j, 'loading_model'));
    await appendFile(`${file}.journal`, '{"put":{"id":"g","status":"proc');
    const restarted = await JobStore.open(file, silentLogger);
    await restarted.update('g', (j) => transition(j, 'failed', { error: 'stopped' }));
    const log = errorLog();
    const again = await JobStore.open(file, log);
    assert.equal(again.get('g')?.status, 'failed', 'the last change survives the next restart');
    assert.deepEqual(log.errors, []);
    assert.deepEqual(await damagedCopies(file), []);
  });

  it('cuts what a failed append left of its line (a full disk) before the next append', async () => {
    const file = await storeFile();
    const store = await JobStore.open(file, silentLogger);
    await store.insert(record('d'));
    const realOpen = fsPromises.open;
    // The disk fills in the middle of the line: part of it is written, then the write fails.
    fsPromises.open = async (...args: Parameters<typeof realOpen>) => {
      const handle = await realOpen(...args);
      const write = handle.writeFile.bind(handle);
      handle.writeFile = async (data) => {
        await write(String(data).slice(0, 25));
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      };
      return handle;
    };
    try {
      await assert.rejects(
        store.update('d', (j) => transition(j, 'loading_model')),
        /ENOSPC/,
      );
    } finally {
      fsPromises.open = realOpen;
    }
    await store.update('d', (j) => transition(j, 'failed', { error: 'the disk was full' }));
    const log = errorLog();
    const reopened = await JobStore.open(file, log);
    assert.equal(reopened.get('d')?.status, 'failed');
    assert.deepEqual(log.errors, []);
  });

  it('folds a long journal into the snapshot and keeps every job across the fold', async () => {
    const file = await storeFile();
    const store = await JobStore.open(file, silentLogger);
    for (let i = 0; i < 1200; i++) await store.insert(record(`j${i}`));
    await store.flush();
    assert.equal(await readFile(`${file}.journal`, 'utf8'), '');
    assert.equal(JSON.parse(await readFile(file, 'utf8')).jobs.length, 1200);
    await store.update('j7', (j) => transition(j, 'cancelled'));
    const reopened = await JobStore.open(file, silentLogger);
    assert.equal(reopened.size, 1200);
    assert.equal(reopened.get('j7')?.status, 'cancelled');
  });

  it('keeps progress monotonic, below 100 until success, and ignores it for finished jobs', async () => {
    const store = await JobStore.open(await storeFile(), silentLogger);
    await store.insert(record('p'));
    store.setProgress('p', 30, 'synthesizing');
    store.setProgress('p', 20, 'synthesizing');
    assert.equal(store.get('p')?.progress, 30);
    store.setProgress('p', 100, 'encoding');
    assert.equal(store.get('p')?.progress, 99);
    await store.update('p', (j) => transition(j, 'cancelled'));
    store.setProgress('p', 99.5, 'encoding');
    assert.equal(store.get('p')?.status, 'cancelled');
    await store.flush();
  });

  it('reopens with every job as it was written', async () => {
    const file = await storeFile();
    const first = await JobStore.open(file, silentLogger);
    await first.insert(record('x'));
    await first.insert(record('y'));
    await first.remove(['x']);
    const second = await JobStore.open(file, silentLogger);
    assert.deepEqual(
      second.all().map((j) => j.id),
      ['y'],
    );
  });

  it("keeps a remote job's caller key name across a reopen; a record whose key name is not text is left out", async () => {
    const file = await storeFile();
    const first = await JobStore.open(file, silentLogger);
    await first.insert({ ...record('r', 'remote'), remoteKeyName: 'team-ci' });
    await first.insert({ ...record('bad', 'remote'), remoteKeyName: 42 as unknown as string });
    await first.flush();
    const errors: string[] = [];
    const second = await JobStore.open(file, {
      ...silentLogger,
      error: (m) => errors.push(m),
      warn: (m) => errors.push(m),
    });
    assert.equal(second.get('r')?.remoteKeyName, 'team-ci');
    assert.equal(second.get('bad'), undefined);
    assert.match(errors.join('\n'), /remoteKeyName: is not a string/);
  });

  it('sets a damaged file aside, logs it and starts empty instead of throwing', async () => {
    const file = await storeFile();
    await writeFile(file, '{"jobs": [');
    const errors: string[] = [];
    const log: Logger = { ...silentLogger, error: (m) => errors.push(m) };
    const store = await JobStore.open(file, log);
    assert.deepEqual(store.all(), []);
    assert.equal(errors.length, 1);
    const kept = (await readdir(path.dirname(file))).filter((n) => n.startsWith('jobs.json.damaged-'));
    assert.equal(kept.length, 1);
    assert.equal(await readFile(path.join(path.dirname(file), kept[0]), 'utf8'), '{"jobs": [');
    await store.insert(record('z'));
    assert.equal(store.get('z')?.id, 'z');
  });
  it('keeps the jobs of every origin across a restart, from the journal and from the snapshot, with nothing set aside', async () => {
    for (const fold of [false, true]) {
      const file = await storeFile();
      const store = await JobStore.open(file, silentLogger);
      for (const origin of JOB_ORIGINS) {
        await store.insert(record(`tts-${origin}`, origin));
        await store.insert(sttRecord(`stt-${origin}`, origin));
        await store.insert(record(`done-${origin}`, origin));
        await store.update(`done-${origin}`, (j) =>
          transition(transition(transition(j, 'loading_model'), 'processing'), 'succeeded'),
        );
      }
      if (fold) await store.flush();
      const log = errorLog();
      const reopened = await JobStore.open(file, log);
      for (const origin of JOB_ORIGINS) {
        assert.equal(
          reopened.get(`tts-${origin}`)?.origin,
          origin,
          `a queued ${origin} TTS job (${fold ? 'snapshot' : 'journal'})`,
        );
        assert.equal(
          reopened.get(`stt-${origin}`)?.origin,
          origin,
          `a queued ${origin} STT job (${fold ? 'snapshot' : 'journal'})`,
        );
        assert.equal(
          reopened.get(`done-${origin}`)?.status,
          'succeeded',
          `a finished ${origin} job (${fold ? 'snapshot' : 'journal'})`,
        );
      }
      assert.equal(reopened.size, JOB_ORIGINS.length * 3);
      assert.deepEqual(log.errors, []);
      assert.deepEqual(await damagedCopies(file), []);
    }
  });

  it('keeps a book job (an audiobook export) of the editor or the CLI across a restart, and sets aside one claiming another origin', async () => {
    const book = (id: string, origin: JobOrigin): JobRecord =>
      ({
        ...record(id, origin),
        kind: 'book',
        input: {
          kind: 'book',
          input: '/tmp/book.md',
          out: '/tmp/book.m4b',
          format: 'm4b',
          perChapter: false,
          chapters: 2,
          paragraphs: 5,
          characters: 120,
        },
      }) as JobRecord;
    const file = await storeFile();
    const store = await JobStore.open(file, silentLogger);
    for (const origin of ['editor', 'cli', 'api'] as const) await store.insert(book(`book-${origin}`, origin));
    await store.flush();
    const log = errorLog();
    const reopened = await JobStore.open(file, log);
    assert.equal(reopened.get('book-editor')?.kind, 'book');
    assert.equal(reopened.get('book-cli')?.input.kind, 'book');
    assert.equal(reopened.get('book-api'), undefined, 'the Local API never has a book job');
    assert.match(log.errors.join('\n'), /a book job comes from the editor or the command line/);
  });

  it('keeps the finished record of a job id written twice in the snapshot, so the job never runs again', async () => {
    for (const order of ['finished first', 'finished last']) {
      const file = await storeFile();
      const done = finished(record('dup'));
      const again = record('dup');
      const jobs = order === 'finished first' ? [done, again, record('other')] : [again, done, record('other')];
      await writeFile(file, JSON.stringify({ version: 1, jobs }));
      const log = errorLog();
      const store = await JobStore.open(file, log);
      assert.equal(store.get('dup')?.status, 'succeeded', order);
      assert.equal(store.get('other')?.status, 'queued');
      assert.equal(store.size, 2);
      assert.equal(log.errors.length, 1, log.errors.join('\n'));
      assert.match(log.errors[0], /1 second records of one job id/);
      assert.equal((await damagedCopies(file)).length, 1);
    }
  });

  it('refuses journal lines that would change a finished job, and reports them', async () => {
    const file = await storeFile();
    const store = await JobStore.open(file, silentLogger);
    await store.insert(record('f'));
    await store.update('f', (j) => transition(j, 'cancelled'));
    await appendFile(`${file}.journal`, `${JSON.stringify({ put: record('f') })}\n`);
    const log = errorLog();
    const reopened = await JobStore.open(file, log);
    assert.equal(reopened.get('f')?.status, 'cancelled');
    assert.equal(log.errors.length, 1, log.errors.join('\n'));
    assert.match(log.errors[0], /1 changes to jobs that had already finished/);
    assert.equal((await damagedCopies(file)).length, 1);
  });

  it('leaves out a job that would still run with options the API refuses, and names the option', async () => {
    const cases: Array<[string, (options: Record<string, unknown>) => void, RegExp]> = [
      ['a sample rate of 1e9', (o) => (o.sampleRate = 1e9), /sampleRate: must be one of/],
      ['an input format the API does not take', (o) => (o.inputFormat = 'doc'), /inputFormat: must be one of/],
      ['an unknown option', (o) => (o.volume = 11), /volume: is not a known field/],
    ];
    for (const [what, damage, message] of cases) {
      const file = await storeFile();
      const bad = record('bad');
      damage((bad.input as TtsJobInput).options);
      const badButFinished = finished({ ...bad, id: 'history' });
      await writeFile(file, JSON.stringify({ version: 1, jobs: [bad, badButFinished, record('good')] }));
      const log = errorLog();
      const store = await JobStore.open(file, log);
      assert.equal(store.get('bad'), undefined, what);
      assert.equal(store.get('good')?.status, 'queued', what);
      assert.equal(store.get('history')?.status, 'succeeded', `${what}: a finished job is history, never run again`);
      assert.equal(log.errors.length, 1, log.errors.join('\n'));
      assert.match(log.errors[0], message);
    }
    const file = await storeFile();
    const stt = sttRecord('stt', 'remote');
    ((stt.input as SttJobInput).options as unknown as Record<string, unknown>).speakerCountMode = 'exact';
    await writeFile(file, JSON.stringify({ version: 1, jobs: [stt] }));
    const log = errorLog();
    assert.equal((await JobStore.open(file, log)).get('stt'), undefined);
    assert.match(log.errors[0], /speakerCount: is required/);
  });
  it("fills in the defaults a waiting job's options lack, as the API does, so the engine reads complete options", async () => {
    const file = await storeFile();
    const old = record('old');
    const options = (old.input as TtsJobInput).options as unknown as Record<string, unknown>;
    delete options.inputFormat;
    delete options.sampleRate;
    const stt = sttRecord('stt', 'editor');
    delete ((stt.input as SttJobInput).options as unknown as Record<string, unknown>).punctuation;
    await writeFile(file, JSON.stringify({ version: 1, jobs: [old, stt] }));
    const log = errorLog();
    const store = await JobStore.open(file, log);
    assert.deepEqual(log.errors, []);
    const loaded = store.get('old')!.input as TtsJobInput;
    assert.equal(loaded.options.inputFormat, 'txt');
    assert.equal(loaded.options.sampleRate, 24000);
    assert.deepEqual(loaded.options, ttsOptions());
    assert.equal((store.get('stt')!.input as SttJobInput).options.punctuation, true);
  });
});
