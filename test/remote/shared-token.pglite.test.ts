/**
 * Two devices given one device token: the newest link wins, the older device is told why (close code
 * 4004 with its reason) and stops instead of pushing the other off in a reconnect loop; both ends log it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LINK_CLOSE } from '../../src/link/protocol';
import type { Logger } from '../../src/util/log';
import { isTerminal, waitFor } from '../helpers/server';
import { startDevice, type TestDevice } from './helpers/device';
import { connectFakeDevice } from './helpers/fake-device';
import { makeDevice, makeKey, startTestRelay, type TestRelay } from './helpers/relay';
import { createTts, waitJob } from './helpers/scenarios';

const connects = (device: TestDevice): number => device.output().match(/Connected to the relay/g)?.length ?? 0;

describe('two devices with one device token', () => {
  let relay: TestRelay;
  let key: string;
  const warnings: string[] = [];
  const log: Logger = { info: () => undefined, warn: (m) => warnings.push(m), error: (m) => warnings.push(m) };
  before(async () => {
    relay = await startTestRelay({ log });
    key = await makeKey(relay.db, relay.relay.accountId);
  });
  after(() => relay?.dispose());

  it('the relay closes the older link with 4004 and the reason, keeps the newer, and logs it', async () => {
    const { id, token } = await makeDevice(relay.db, relay.relay.accountId, 'shared by two');
    const older = await connectFakeDevice(relay.origin, token);
    const newer = await connectFakeDevice(relay.origin, token);
    try {
      assert.deepEqual(await older.closed, { code: 4004, reason: LINK_CLOSE.superseded.reason });
      assert.ok(newer.open, 'the newest link stays');
      assert.equal(newer.deviceId, id);
      const told = warnings.filter((w) => w.includes(id));
      assert.equal(told.length, 1, told.join('\n'));
      assert.match(told[0], /a newer link from \S+ replaced its link from \S+\..*own token/);
    } finally {
      older.close();
      newer.close();
    }
  });

  it('real devices: the older one logs why and stops; the newer one runs its jobs without being pushed off', async () => {
    const { token } = await makeDevice(relay.db, relay.relay.accountId, 'two laptops');
    const first = await startDevice({ relayOrigin: relay.origin, token, stt: false });
    let second: TestDevice | undefined;
    try {
      await first.connected();
      second = await startDevice({ relayOrigin: relay.origin, token, stt: false });
      await second.connected();
      await waitFor(
        'the first device to say why it stopped',
        async () => first.output(),
        (out) => /same device token/.test(out) && /own token/.test(out),
      );
      // A job on the device that won: time in which a device that kept reconnecting would push it off again.
      const created = await createTts(relay.base, key, 'Runs on the device that won.');
      assert.equal(created.status, 200, created.body.toString());
      const job = await waitJob(relay.base, key, created.json().id, isTerminal);
      assert.equal(job.status, 'succeeded', JSON.stringify(job));
      assert.equal(connects(first), 1, first.output());
      assert.equal(connects(second), 1, second.output());
      assert.equal(first.child.exitCode, null, "the first device's server keeps running; only its link stopped");
    } finally {
      await Promise.all([first.dispose(), second?.dispose()]);
    }
  });
});
