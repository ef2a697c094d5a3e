import assert from 'node:assert/strict';
import { appendFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { compileValidators } from '../../src/contract/validation';
import { JobFiles } from '../../src/jobs/job-files';
import { isLocalOnlyKind, JOB_KINDS, jobKindOf } from '../../src/jobs/kinds';
import { JobStore } from '../../src/jobs/store';
import { toPublicJob } from '../../src/jobs/types';
import { silentLogger } from '../../src/util/log';
import { tempDir } from '../helpers/temp';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const checked = compileValidators().sttOptions({ language: 'en' });
assert.ok(checked.ok);
const options = checked.value;

/** An alignment as the previous version stored it: an stt job with an empty model path and its script under `align`. */
const legacyAlignment = (id: string, status: 'queued' | 'succeeded') => ({
  id,
  name: 'talk.wav',
  kind: 'stt',
  status,
  progress: status === 'queued' ? 0 : 100,
  phase: status === 'queued' ? 'queued' : 'done',
  backend: status === 'queued' ? null : 'align',
  result: null,
  error: null,
  createdAt: 1,
  startedAt: status === 'queued' ? null : 2,
  finishedAt: status === 'queued' ? null : 3,
  origin: 'api',
  outputFile: status === 'queued' ? null : 'transcript.json',
  input: {
    kind: 'stt',
    options,
    inputFile: 'input.wav',
    originalName: 'talk.wav',
    bytes: 10,
    modelPath: '',
    align: { scriptFile: 'script.srt', scriptFormat: 'srt', vadModelPath: null, recognizerModelPath: null },
  },
});

describe('job kinds', () => {
  it("registers each kind under its own name, and only tts, stt and align reach the seed's routes: every other kind is local-only", () => {
    for (const [name, kind] of Object.entries(JOB_KINDS)) assert.equal(kind.kind, name);
    // Listed by what the seed shows, so a new local-only kind (book, translate, dub, embed, …) needs no line here.
    assert.deepEqual(
      Object.keys(JOB_KINDS)
        .filter((kind) => !isLocalOnlyKind(kind as keyof typeof JOB_KINDS))
        .sort(),
      ['align', 'stt', 'tts'],
    );
    assert.equal(jobKindOf('align').seedKind, 'stt');
  });

  it('reads an alignment the previous version stored as stt as an align job, shown as stt on the seed routes', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const file = path.join(dir, 'jobs.json');
    await writeFile(file, JSON.stringify({ version: 1, jobs: [legacyAlignment('done', 'succeeded')] }), 'utf8');
    await appendFile(`${file}.journal`, `${JSON.stringify({ put: legacyAlignment('waiting', 'queued') })}\n`, 'utf8');
    const store = await JobStore.open(file, silentLogger);
    assert.deepEqual(
      (await readdir(dir)).filter((name) => name.includes('.damaged-')),
      [],
      'nothing set aside',
    );
    for (const id of ['done', 'waiting']) {
      const job = store.get(id)!;
      assert.equal(job.kind, 'align');
      assert.deepEqual(job.input, {
        kind: 'align',
        options,
        inputFile: 'input.wav',
        originalName: 'talk.wav',
        bytes: 10,
        scriptFile: 'script.srt',
        scriptFormat: 'srt',
        vadModelPath: null,
        recognizerModelPath: null,
      });
      assert.equal(toPublicJob(job).kind, 'stt');
    }
    const task = new JobFiles(dir).task(store.get('waiting')!);
    assert.equal(task.kind, 'align');
    assert.ok(task.kind === 'align' && task.scriptPath.endsWith(path.join('waiting', 'script.srt')));
  });

  it('takes an old-style alignment in the snapshot and the same job written since as align in the journal as one unchanged job', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const file = path.join(dir, 'jobs.json');
    const old = legacyAlignment('done', 'succeeded');
    const { align, modelPath: _modelPath, ...rest } = old.input;
    const since = { ...old, kind: 'align', input: { ...rest, kind: 'align', ...align } };
    await writeFile(file, JSON.stringify({ version: 1, jobs: [old] }), 'utf8');
    await appendFile(`${file}.journal`, `${JSON.stringify({ put: since })}\n`, 'utf8');
    const errors: string[] = [];
    const store = await JobStore.open(file, { ...silentLogger, error: (message: string) => void errors.push(message) });
    assert.deepEqual(errors, []);
    assert.equal(store.get('done')?.kind, 'align');
  });
});
