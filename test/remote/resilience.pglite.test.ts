/**
 * The relay on its embedded database (PGlite, one instance): the concurrency storm, a device killed
 * mid-job, and the relay itself stopped and started again on the same data folder mid-job.
 */
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { startDevice, type TestDevice } from './helpers/device';
import { freePort } from './helpers/postgres';
import { makeDevice, makeKey, pgliteDataDir, startTestRelay, type TestRelay } from './helpers/relay';
import { concurrencyStorm, deviceKilledMidJob, relayRestartedMidJob } from './helpers/scenarios';

describe('the relay on PGlite under failure', () => {
  let relay: TestRelay;
  let dataDir: string;
  let port: number;
  let key: string;
  const devices: Record<'a' | 'b', { id: string; token: string; process?: TestDevice }> = {} as never;

  before(async () => {
    dataDir = await pgliteDataDir();
    port = await freePort();
    relay = await startTestRelay({ dataDir, port });
    const accountId = relay.relay.accountId;
    devices.a = await makeDevice(relay.db, accountId, 'a');
    devices.b = await makeDevice(relay.db, accountId, 'b');
    [devices.a.process, devices.b.process] = await Promise.all([
      startDevice({ relayOrigin: relay.origin, token: devices.a.token, stt: false }),
      startDevice({ relayOrigin: relay.origin, token: devices.b.token, stt: false }),
    ]);
    await Promise.all([devices.a.process.connected(), devices.b.process.connected()]);
    key = await makeKey(relay.db, accountId);
  });

  after(async () => {
    await Promise.all([devices.a?.process?.dispose(), devices.b?.process?.dispose()]);
    await relay?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('50 concurrent creations against a concurrency limit of 2: exactly 2 run, 48 get 429', async () => {
    await concurrencyStorm(
      [relay.base],
      await makeKey(relay.db, relay.relay.accountId, { maxConcurrentJobs: 2 }),
      relay.db,
    );
  });

  it('a device killed mid-job: its running job is interrupted, its queued job moves to the other device', async () => {
    await deviceKilledMidJob(relay.base, key, relay.db, {
      a: { id: devices.a.id, kill: () => devices.a.process!.kill('SIGKILL') },
      b: { id: devices.b.id },
    });
  });

  it('the relay stopped and started again mid-job: the job is interrupted, the device links up again and runs the next one', async () => {
    const device = devices.b.process!;
    await relayRestartedMidJob(
      () => relay.base,
      key,
      devices.b.id,
      async () => {
        await relay.stop();
        relay = await startTestRelay({ dataDir, port });
      },
      () => device.connected(2),
      () => device.localJobs(),
    );
  });
});
