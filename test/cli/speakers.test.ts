/**
 * `cli.js speakers add | remove | list`: enrollment is validated (a name taken, a clip with no speech or too
 * little), persists in the data directory across restarts, is listed by GET /v1/speakers, and names the
 * matching speaker in a native STT job's json-full and VTT transcripts (the engine's fixed-embedding test hook stands in for
 * real voices: the test models have random weights).
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FIXED_EMBEDDING_ENV } from '../../src/config/engine-environment';
import { runCli } from '../helpers/cli';
import { wavHeader } from '../helpers/wav';
import { uploadMultipart } from '../helpers/multipart';
import { installSttModel } from '../helpers/stt-engine';
import { testModel } from '../helpers/test-models';
import { isTerminal, request, startTestServer, tempDir, waitForJob } from '../helpers/server';

const HOOK = { [FIXED_EMBEDDING_ENV]: '1' };

async function shortClip(dir: string): Promise<string> {
  const bytes = await readFile(testModel('audio/jfk.wav'));
  const dataAt = bytes.indexOf('data') + 8;
  const samples = bytes.subarray(dataAt, dataAt + 16000 * 2 * 1.2);
  const file = path.join(dir, 'short.wav');
  await writeFile(file, Buffer.concat([wavHeader(samples.length), samples]));
  return file;
}

describe('cli.js speakers', () => {
  let dataDir: string;
  const cli = (args: string[]) => runCli(['speakers', ...args, '--data-dir', dataDir], HOOK);

  before(async () => {
    dataDir = await tempDir();
  });

  it('refuses to enroll before the diarization models are installed', async () => {
    const result = await cli(['add', 'Ann', testModel('audio/jfk.wav')]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /diarization models/);
  });

  it('enrolls a voice; refuses a name taken, a clip without speech, a clip with too little, a generic label', async () => {
    await installSttModel(dataDir);
    const models = path.join(dataDir, 'models');
    await mkdir(path.join(models, 'diarization'), { recursive: true });
    await mkdir(path.join(models, 'vad'), { recursive: true });
    for (const name of ['segmentation.onnx', 'embedding.onnx'])
      await copyFile(testModel('sherpa-synthetic', 'diarization', name), path.join(models, 'diarization', name));
    await copyFile(testModel('vad/ggml-silero-v6.2.0.bin'), path.join(models, 'vad', 'ggml-silero-v6.2.0.bin'));

    const added = await cli(['add', 'Ann', testModel('audio/jfk.wav')]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /Enrolled Ann/);
    const taken = await cli(['add', 'Ann', testModel('audio/jfk.wav')]);
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /already enrolled/);
    const silent = await cli(['add', 'Bob', testModel('audio/noise-no-speech.wav')]);
    assert.equal(silent.code, 1);
    assert.match(silent.stderr, /no speech/);
    const short = await cli(['add', 'Bob', await shortClip(dataDir)]);
    assert.equal(short.code, 1);
    assert.match(short.stderr, /at least 2 s/);
    const generic = await cli(['add', 'Speaker 1', testModel('audio/jfk.wav')]);
    assert.equal(generic.code, 1);
    const listed = await cli(['list']);
    assert.equal(listed.code, 0);
    assert.deepEqual(
      listed.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('\t')[0]),
      ['Ann'],
    );
  });

  describe('after a restart', () => {
    let t: Awaited<ReturnType<typeof startTestServer>>;
    before(async () => {
      // The engine starts with the first job and takes this process's environment then.
      Object.assign(process.env, HOOK);
      t = await startTestServer({ dataDir });
    });
    after(async () => {
      await t.dispose();
      delete process.env[FIXED_EMBEDDING_ENV];
    });

    it('GET /v1/speakers lists the enrolled speakers, without their voices', async () => {
      const res = await request(`${t.base}/speakers`);
      assert.equal(res.status, 200);
      const { speakers } = res.json();
      assert.deepEqual(
        speakers.map((s: any) => s.name),
        ['Ann'],
      );
      assert.equal('embedding' in speakers[0], false);
    });

    it('a native STT job with diarization names the matching speaker in json-full and VTT', async () => {
      const res = await uploadMultipart(
        `${t.base}/stt/jobs`,
        { diarizationEnabled: 'true', language: 'en' },
        { source: testModel('audio/multispeaker/1-two-speakers-en.wav'), filename: 'two.wav' },
      );
      assert.equal(res.status, 200, res.body.toString());
      const job = await waitForJob(t.base, res.json().id, isTerminal, 120_000);
      assert.equal(job.status, 'succeeded', job.error);
      const full = (await request(`${t.base}/jobs/${job.id}/transcript?format=json-full`)).json();
      assert.equal(full.speakers[0], 'Ann');
      if (full.speakers.length > 1) assert.match(full.speakers[1], /^Speaker \d+$/, 'a name goes to one speaker only');
      const first = full.segments.find((s: any) => s.speaker === 'Ann');
      assert.ok(first);
      const vtt = (await request(`${t.base}/jobs/${job.id}/transcript?format=vtt`)).body.toString();
      assert.ok(vtt.includes('<v Ann>'), vtt.slice(0, 300));
    });

    it('speakers remove forgets the voice', async () => {
      assert.equal((await cli(['remove', 'Ann'])).code, 0);
      assert.equal((await cli(['remove', 'Ann'])).code, 1);
      assert.deepEqual((await request(`${t.base}/speakers`)).json().speakers, []);
    });
  });
});
