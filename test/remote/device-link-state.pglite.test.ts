/**
 * The device client as VS Code drives it (in-process, on a server's own job core): the state it reports
 * (refused with the relay's sentence), the caller's key name on the device's record of a remote job, and a
 * close that takes the device offline on the relay at once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startDeviceClient, type DeviceLinkState } from '../../src/device/device-client';
import { silentLogger } from '../../src/util/log';
import { createVoiceLibrary } from '../../src/voices/library';
import { request, startTestServer, waitFor, type TestServer } from '../helpers/server';
import { bearer, makeDevice, makeKey, startTestRelay, type TestRelay } from './helpers/relay';
import { createTts, waitJob } from './helpers/scenarios';

describe('the device client inside an editor', () => {
  let relay: TestRelay;
  let device: TestServer;
  let key: string;
  before(async () => {
    relay = await startTestRelay({ offlineAfterMs: 60_000 });
    key = await makeKey(relay.db, relay.relay.accountId, { name: 'team-ci' });
    device = await startTestServer();
  });
  after(async () => {
    await device?.dispose();
    await relay?.dispose();
  });

  const start = (token: string, states: DeviceLinkState[]) =>
    startDeviceClient({
      relayUrl: relay.origin,
      deviceToken: token,
      jobs: device.server.jobs,
      voices: createVoiceLibrary({ dataDir: device.dataDir }),
      // No speed calibration: its jobs would be remote jobs too, and this suite counts them.
      dataDir: device.dataDir,
      log: silentLogger,
      initialBackoffMs: 50,
      maxBackoffMs: 500,
      calibrate: false,
      onStateChange: (state) => states.push(state),
    });

  it("a token the relay does not know is refused, with the relay's own sentence", async () => {
    const states: DeviceLinkState[] = [];
    const client = start(`ssd_${'x'.repeat(40)}`, states);
    try {
      await waitFor(
        'the refusal',
        async () => client.state,
        (state) => state === 'refused',
        15_000,
      );
      assert.equal(client.problem, 'The device token is wrong, or the device was removed.');
      assert.deepEqual(states, ['refused'], 'connecting → refused, no flapping through disconnected');
    } finally {
      await client.close();
    }
    assert.equal(client.state, 'stopped');
  });

  it('a relay that does not answer to the name used refuses the link too (403), with its sentence', async () => {
    const named = await startTestRelay({ allowedHosts: ['relay.example.com'] });
    const { token } = await makeDevice(named.db, named.relay.accountId, 'wrong name');
    const client = startDeviceClient({
      relayUrl: named.origin,
      deviceToken: token,
      jobs: device.server.jobs,
      voices: createVoiceLibrary({ dataDir: device.dataDir }),
      dataDir: device.dataDir,
      log: silentLogger,
      initialBackoffMs: 50,
      maxBackoffMs: 500,
      calibrate: false,
    });
    try {
      await waitFor(
        'the refusal',
        async () => client.state,
        (state) => state === 'refused',
        15_000,
      );
      assert.match(client.problem ?? '', /^Host "127\.0\.0\.1:\d+" is not one of this relay's allowed hosts/);
    } finally {
      await client.close();
      await named.dispose();
    }
  });

  it("runs a relay job as a remote job named after the caller's key, and leaves the relay at once on close", async () => {
    const { id: deviceId, token } = await makeDevice(relay.db, relay.relay.accountId, 'vscode');
    const states: DeviceLinkState[] = [];
    const client = start(token, states);
    let closed = false;
    try {
      await client.connected();
      assert.equal(client.deviceId, deviceId);
      assert.equal(client.problem, undefined);
      const created = await createTts(relay.base, key, 'Hello from the team relay.', deviceId);
      assert.equal(created.status, 200, created.body.toString());
      const job = await waitJob(
        relay.base,
        key,
        created.json().id,
        (j) => !['queued', 'loading_model', 'processing'].includes(j.status),
      );
      assert.equal(job.status, 'succeeded', job.error);
      const local = device.server.jobs.list().filter((record) => record.origin === 'remote');
      assert.equal(local.length, 1);
      assert.equal(local[0].remoteKeyName, 'team-ci');
      assert.equal(local[0].status, 'succeeded');

      const ready = async () =>
        (await request(`${relay.base}/capabilities`, { headers: bearer(key) })).json().devices.ready as number;
      assert.equal(await ready(), 1);
      await client.close();
      closed = true;
      // offlineAfterMs is a minute: only the closed link itself can take the device offline this soon.
      await waitFor('the relay to see the device offline', ready, (n) => n === 0, 5_000);
      assert.deepEqual(states, ['connected', 'stopped']);
    } finally {
      if (!closed) await client.close();
    }
  });
});
