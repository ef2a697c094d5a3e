import assert from 'node:assert/strict';
import { appendFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { JobStore } from '../../src/jobs/store';
import { transition } from '../../src/jobs/state';
import type { JobRecord } from '../../src/jobs/types';
import { silentLogger, type Logger } from '../../src/util/log';
import { tempDir } from '../helpers/temp';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function storeFile(): Promise<string> {
  const dir = await tempDir();
  dirs.push(dir);
  return path.join(dir, 'jobs.json');
}

const record = (id: string): JobRecord => ({
  id, name: id, kind: 'tts', status: 'queued', progress: 0, phase: 'queued', backend: null, result: null, error: null,
  createdAt: 1, startedAt: null, finishedAt: null, origin: 'api', outputFile: null,
  input: { kind: 'tts', characters: 1, options: {} as never, voice: { engine: 'espeak-ng', engineVoiceId: 'en', languageCode: 'en' } },
});

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
    assert.deepEqual(second.all().map((j) => j.id), ['y']);
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
});
