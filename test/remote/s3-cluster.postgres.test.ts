/**
 * Two relay processes on one PostgreSQL database and one S3 bucket (s3rver on loopback), each on its own
 * data directory, as on two hosts: a job accepted by one runs on a device linked to the other and its
 * output is served by the first; the bucket stopping mid-upload fails the job readably and serves nothing
 * half-written. A relay whose bucket is missing or whose credentials are refused does not start.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { ensureAccount } from '../../src/relay/data/accounts';
import type { Database } from '../../src/relay/db/database';
import { openDatabase } from '../../src/relay/db/open-database';
import { silentLogger } from '../../src/util/log';
import { uploadMultipart } from '../helpers/multipart';
import { assertErrorBody, isTerminal, request, tempDir } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { startDevice, type TestDevice } from './helpers/device';
import { postgresMissingReason, startPostgres, type PostgresCluster } from './helpers/postgres';
import { bearer, makeDevice, makeKey, RELAY_CLI, startRelayProcess, type RelayProcess } from './helpers/relay';
import { startS3, TEST_BUCKET, type TestS3 } from './helpers/s3-server';
import { createTts, deviceOf, waitJob } from './helpers/scenarios';

const PREFIX = 'relay-prod';

describe('two relay instances on one PostgreSQL database and one S3 bucket', { skip: postgresMissingReason() }, () => {
  let s3: TestS3;
  let cluster: PostgresCluster;
  let db: Database;
  let key: string;
  let deviceB: { id: string; token: string; process?: TestDevice };
  const dataDirs: string[] = [];
  const relays: Partial<Record<'a' | 'b', RelayProcess>> = {};

  before(async () => {
    s3 = await startS3();
    cluster = await startPostgres();
    const url = await cluster.createDatabase();
    db = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', log: silentLogger });
    const accountId = (await ensureAccount(db)).id;
    for (const name of ['a', 'b'] as const) {
      const dataDir = await tempDir(`speech-relay-${name}-`);
      dataDirs.push(dataDir);
      relays[name] = await startRelayProcess(
        [
          '--database-url',
          url,
          '--data-dir',
          dataDir,
          '--port',
          '0',
          '--storage',
          `s3://${TEST_BUCKET}/${PREFIX}`,
          '--s3-path-style',
        ],
        s3.env(),
      );
    }
    deviceB = await makeDevice(db, accountId, 'linked to instance B');
    deviceB.process = await startDevice({ relayOrigin: relays.b!.origin, token: deviceB.token, stt: true });
    await deviceB.process.connected();
    key = await makeKey(db, accountId);
  });

  after(async () => {
    await deviceB?.process?.dispose();
    await Promise.all([relays.a?.stop(), relays.b?.stop()]);
    await db?.close();
    await cluster?.stop();
    await s3?.dispose();
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('an STT job uploaded to A runs on the device linked to B, and A serves its transcript from the bucket', async () => {
    assert.match(relays.a!.output(), /S3 bucket speech-relay-test\/relay-prod/);
    const upload = await uploadMultipart(
      `${relays.a!.base}/stt/jobs`,
      { language: 'en', diarizationEnabled: 'false' },
      { source: testModel('audio/jfk.wav'), filename: 'jfk.wav' },
      bearer(key),
    );
    assert.equal(upload.status, 200, upload.body.toString());
    const id = upload.json().id as string;
    const done = await waitJob(relays.a!.base, key, id, isTerminal);
    assert.equal(done.status, 'succeeded', done.error);
    assert.equal(await deviceOf(db, id), deviceB.id);
    const transcript = await request(`${relays.a!.base}/jobs/${id}/transcript?format=json-full`, {
      headers: bearer(key),
    });
    assert.equal(transcript.status, 200, transcript.body.toString());
    assert.ok(Array.isArray(transcript.json().segments));
    // The input went once the job ended; the transcript stays, under the prefix, in the bucket only.
    assert.deepEqual(await s3.keys(`${PREFIX}/jobs/${id}/`), [`${PREFIX}/jobs/${id}/transcript.json`]);
    for (const dir of dataDirs) assert.ok(!(await readdir(dir)).includes('storage'), `nothing stored under ${dir}`);
  });

  it("a TTS job created on A runs on B's device, and A streams its audio from the bucket", async () => {
    const created = await createTts(relays.a!.base, key, 'Accepted by A, spoken beside B, served by A.', deviceB.id);
    assert.equal(created.status, 200, created.body.toString());
    const done = await waitJob(relays.a!.base, key, created.json().id, isTerminal);
    assert.equal(done.status, 'succeeded', done.error);
    const audio = await request(`${relays.a!.base}/jobs/${done.id}/output`, { headers: bearer(key) });
    assert.equal(audio.status, 200);
    assert.equal(audio.body.subarray(0, 4).toString(), 'RIFF');
    assert.equal(Number(audio.headers['content-length']), audio.body.length);
    assert.deepEqual(await s3.keys(`${PREFIX}/jobs/${done.id}/`), [`${PREFIX}/jobs/${done.id}/output.wav`]);
  });

  it('the S3 server stopped mid-upload: the job fails with a readable error and nothing half-written is served', async () => {
    const stopped = s3.stopAfter(8 * 1024); // a few KB into the output's PutObject
    const created = await createTts(
      relays.a!.base,
      key,
      'This output never reaches the bucket whole, so nobody may download it.',
      deviceB.id,
    );
    assert.equal(created.status, 200, created.body.toString());
    const id = created.json().id as string;
    await stopped;
    const done = await waitJob(relays.a!.base, key, id, isTerminal);
    assert.equal(done.status, 'failed');
    assert.match(
      done.error,
      /^The device could not return the output: .*HTTP 500: The relay could not complete the request because its file storage failed; try again later\./,
    );
    assertErrorBody(
      await request(`${relays.a!.base}/jobs/${id}/output`, { headers: bearer(key) }),
      409,
      'JOB_NOT_COMPLETED',
    );
    assert.match(
      relays.b!.output(),
      new RegExp(
        `PUT /v1/device/jobs/${id}/output: The relay's object storage \\(bucket "${TEST_BUCKET}" at http://127\\.0\\.0\\.1:\\d+\\) failed to store jobs/${id}/output\\.wav`,
      ),
    );
    await s3.restart();
    assert.deepEqual(await s3.keys(`${PREFIX}/jobs/${id}/`), [], 'no object, whole or partial');
    // The bucket back, the next job goes through again.
    const next = await createTts(relays.a!.base, key, 'Back again.', deviceB.id);
    assert.equal((await waitJob(relays.a!.base, key, next.json().id, isTerminal)).status, 'succeeded');
  });
});

/** `node dist/relay.js serve …` to its exit: the code and everything it printed. */
function runRelay(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [RELAY_CLI, 'serve', '--host', '127.0.0.1', '--port', '0', ...args],
      { env: { ...process.env, ...env }, timeout: 30_000 },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, output: `${stdout}${stderr}` }),
    );
  });
}

describe('a relay on S3 refuses to start without a usable bucket', () => {
  let s3: TestS3;
  let dataDir: string;
  before(async () => {
    s3 = await startS3();
  });
  beforeEach(async () => {
    dataDir = await tempDir('speech-relay-s3-start-');
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
  after(async () => {
    await s3?.dispose();
  });

  it('a missing bucket: one sentence saying so, exit code 1', async () => {
    const { code, output } = await runRelay(
      ['--data-dir', dataDir, '--storage', 's3://no-such-bucket/x', '--s3-path-style'],
      s3.env(),
    );
    assert.equal(code, 1);
    assert.equal(
      output,
      `The S3 bucket "no-such-bucket" does not exist at ${s3.endpoint}: create it, or correct --storage.\n`,
    );
  });

  it('refused credentials: one sentence naming what to check, exit code 1', async () => {
    // (s3rver checks the access key id, not SigV4 signatures: an unknown id is what it refuses.)
    const { code, output } = await runRelay(
      ['--data-dir', dataDir, '--storage', `s3://${TEST_BUCKET}`, '--s3-path-style'],
      { ...s3.env(), AWS_ACCESS_KEY_ID: 'NOT-A-KNOWN-KEY' },
    );
    assert.equal(code, 1);
    assert.match(
      output,
      /^The S3 bucket "speech-relay-test" at http:\/\/127\.0\.0\.1:\d+ refused the credentials \(HTTP 403\): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY[^\n]*\.\n$/,
    );
  });

  it('no credentials at all: a usage error before any request, exit code 2', async () => {
    const { code, output } = await runRelay(
      ['--data-dir', dataDir, '--storage', `s3://${TEST_BUCKET}`, '--s3-endpoint', s3.endpoint],
      { AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '' },
    );
    assert.equal(code, 2);
    assert.match(output, /^S3 storage needs credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
    assert.ok(!(await readdir(dataDir)).includes('db'), 'the database was not even opened');
  });
});
