/**
 * Two relay processes on one PostgreSQL database and one storage folder, a real device linked to each:
 * nothing an instance needs lives only in the other's memory.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { ensureAccount } from '../../src/relay/data/accounts';
import type { Database } from '../../src/relay/db/database';
import { openDatabase } from '../../src/relay/db/open-database';
import { silentLogger } from '../../src/util/log';
import { uploadMultipart } from '../helpers/multipart';
import { assertErrorBody, isTerminal, request, tempDir } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { startDevice, type TestDevice } from './helpers/device';
import { freePort, postgresMissingReason, startPostgres, type PostgresCluster } from './helpers/postgres';
import { bearer, makeDevice, makeKey, startRelayProcess, type RelayProcess } from './helpers/relay';
import {
  concurrencyStorm,
  createTts,
  deviceKilledMidJob,
  deviceOf,
  relayRestartedMidJob,
  waitJob,
} from './helpers/scenarios';

const missing = postgresMissingReason();

describe('two relay instances on one PostgreSQL database', { skip: missing }, () => {
  let cluster: PostgresCluster;
  let url: string;
  let db: Database;
  let accountId: number;
  let storage: string;
  const dataDirs: string[] = [];
  const relays: Record<'a' | 'b', RelayProcess | undefined> = { a: undefined, b: undefined };
  const ports = { a: 0, b: 0 };
  const devices: Record<'a' | 'b', { id: string; token: string; process?: TestDevice }> = {} as never;
  let key: string;

  async function startInstance(name: 'a' | 'b'): Promise<RelayProcess> {
    const dataDir = await tempDir('speech-relay-');
    dataDirs.push(dataDir);
    relays[name] = await startRelayProcess([
      '--database-url',
      url,
      '--storage-dir',
      storage,
      '--data-dir',
      dataDir,
      '--port',
      String(ports[name]),
    ]);
    return relays[name];
  }

  before(async () => {
    cluster = await startPostgres();
    url = await cluster.createDatabase();
    db = await openDatabase({ databaseUrl: url, dataDir: '/nonexistent', log: silentLogger });
    accountId = (await ensureAccount(db)).id;
    storage = await tempDir('speech-relay-storage-');
    [ports.a, ports.b] = [await freePort(), await freePort()];
    await Promise.all([startInstance('a'), startInstance('b')]);
    devices.a = await makeDevice(db, accountId, 'on instance A (voices only)');
    devices.b = await makeDevice(db, accountId, 'on instance B (voices and whisper)');
    devices.a.process = await startDevice({ relayOrigin: relays.a!.origin, token: devices.a.token, stt: false });
    devices.b.process = await startDevice({ relayOrigin: relays.b!.origin, token: devices.b.token, stt: true });
    await Promise.all([devices.a.process.connected(), devices.b.process.connected()]);
    key = await makeKey(db, accountId);
  });

  after(async () => {
    await Promise.all([devices.a?.process?.dispose(), devices.b?.process?.dispose()]);
    await Promise.all([relays.a?.stop(), relays.b?.stop()]);
    await db?.close();
    await cluster?.stop();
    await Promise.all([storage, ...dataDirs].filter(Boolean).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('a job created on one instance runs on a device linked to the other, and any instance serves its result', async () => {
    const upload = await uploadMultipart(
      `${relays.a!.base}/stt/jobs`,
      { language: 'en', diarizationEnabled: 'false' },
      { source: testModel('audio/jfk.wav'), filename: 'jfk.wav' },
      bearer(key),
    );
    assert.equal(upload.status, 200, upload.body.toString());
    const stt = await waitJob(relays.a!.base, key, upload.json().id, isTerminal);
    assert.equal(stt.status, 'succeeded', stt.error);
    assert.equal(await deviceOf(db, stt.id), devices.b.id, 'only the device on B has a whisper model');
    for (const relay of [relays.a!, relays.b!]) {
      assert.equal(
        (await request(`${relay.base}/jobs/${stt.id}/transcript?format=txt`, { headers: bearer(key) })).status,
        200,
      );
    }

    const tts = (await createTts(relays.b!.base, key, 'Made on B, spoken on A.', devices.a.id)).json();
    const done = await waitJob(relays.b!.base, key, tts.id, isTerminal);
    assert.equal(done.status, 'succeeded', done.error);
    const audio = await request(`${relays.a!.base}/jobs/${tts.id}/output`, { headers: bearer(key) });
    assert.equal(audio.status, 200);
    assert.equal(audio.body.subarray(0, 4).toString(), 'RIFF');
  });

  it('the requests-per-minute limit holds across instances', async () => {
    const limited = await makeKey(db, accountId, { rpm: 6 });
    for (let i = 0; i < 6; i++) {
      const relay = i % 2 === 0 ? relays.a! : relays.b!;
      assert.equal(
        (await request(`${relay.base}/capabilities`, { headers: bearer(limited) })).status,
        200,
        `request ${i + 1}`,
      );
    }
    assertErrorBody(await request(`${relays.a!.base}/capabilities`, { headers: bearer(limited) }), 429, 'RATE_LIMITED');
    assertErrorBody(await request(`${relays.b!.base}/capabilities`, { headers: bearer(limited) }), 429, 'RATE_LIMITED');
  });

  it('50 concurrent creations on both instances against a concurrency limit of 2: exactly 2 run, 48 get 429', async () => {
    await concurrencyStorm(
      [relays.a!.base, relays.b!.base],
      await makeKey(db, accountId, { maxConcurrentJobs: 2 }),
      db,
    );
  });

  it('a device killed mid-job: its running job is interrupted, its queued job moves to the device on the other instance', async () => {
    await deviceKilledMidJob(relays.a!.base, key, db, {
      a: { id: devices.a.id, kill: () => devices.a.process!.kill('SIGKILL') },
      b: { id: devices.b.id },
    });
    await devices.a.process!.dispose();
    devices.a.process = await startDevice({ relayOrigin: relays.a!.origin, token: devices.a.token, stt: false });
    await devices.a.process.connected();
  });

  it('a relay killed and restarted mid-job: the job is interrupted, the device links up again and runs the next one', async () => {
    const device = devices.b.process!;
    await relayRestartedMidJob(
      () => relays.a!.base,
      key,
      devices.b.id,
      async () => {
        await relays.b!.stop('SIGKILL');
        await startInstance('b');
      },
      () => device.connected(2),
      () => device.localJobs(),
    );
  });
});
