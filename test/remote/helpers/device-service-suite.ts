/**
 * Which device served a job, and taking a device out of service (issue #42), on PGlite or PostgreSQL: the
 * job's responses name its device in X-Studio-Device; a drained device finishes what it was sent, takes no new
 * job (named: 503 DEVICE_OFFLINE; automatic: another device), shows "drained", and takes jobs again once put back.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiKey, InvalidInputError, setKeyWeight } from '../../../src/relay/data/api-keys';
import { sentJobsByDevice, drainState, getDevice, setDeviceLabels } from '../../../src/relay/data/devices';
import { readRelayMetrics } from '../../../src/relay/data/metrics';
import type { RelayOptions } from '../../../src/relay/relay-server';
import { assertErrorBody, postJson, request, waitFor, waitForJob } from '../../helpers/server';
import { connectFakeDevice, type FakeDevice } from './fake-device';
import { signIn, type PortalSession } from './portal';
import { bearer, makeDevice, makeKey, startTestRelay, type TestRelay } from './relay';
import { ENGLISH_VOICE } from './scenarios';

const TTS_RESULT = {
  mediaType: 'audio/wav',
  outputFormat: 'wav',
  sampleRate: 22050,
  audioChannels: 'mono',
  durationSeconds: 1,
  bytes: 10,
};

export function describeDeviceService(
  label: string,
  setUp: () => Promise<{ options: Partial<RelayOptions>; stop(): Promise<void> }>,
): void {
  describe(`which device served a job, and draining one (${label})`, () => {
    let relay: TestRelay;
    let stopDatabase: () => Promise<void>;
    let key: string;
    const devices: Record<'a' | 'b', { id: string; token: string; link: FakeDevice }> = {} as never;
    let portal: PortalSession;
    before(async () => {
      const database = await setUp();
      stopDatabase = () => database.stop();
      relay = await startTestRelay({ ...database.options, sweepIntervalMs: 250 });
      key = await makeKey(relay.db, relay.relay.accountId, { maxConcurrentJobs: 100 });
      for (const name of ['a', 'b'] as const) {
        const { id, token } = await makeDevice(relay.db, relay.relay.accountId, name);
        devices[name] = { id, token, link: await connectFakeDevice(relay.origin, token) };
      }
      portal = await signIn(relay.origin);
    });
    after(async () => {
      for (const d of Object.values(devices)) d.link.close();
      await relay?.dispose();
      await stopDatabase?.();
    });

    const create = (headers: Record<string, string> = {}) =>
      postJson(
        `${relay.base}/tts/jobs`,
        { voiceId: ENGLISH_VOICE, text: 'Served by whom?' },
        { ...bearer(key), ...headers },
      );
    const finish = async (name: 'a' | 'b', jobId: string, jobKey = key) => {
      const put = await request(`${relay.origin}/v1/device/jobs/${jobId}/output`, {
        method: 'PUT',
        headers: bearer(devices[name].token),
        body: Buffer.alloc(10, 1),
      });
      assert.equal(put.status, 204);
      devices[name].link.send({
        type: 'update',
        jobId,
        status: 'succeeded',
        progress: 100,
        phase: null,
        result: TTS_RESULT,
      });
      return waitForJob(relay.base, jobId, (j) => j.status === 'succeeded', 20_000, bearer(jobKey));
    };
    const serviceOf = async (name: 'a' | 'b') => {
      const device = (await getDevice(relay.db, relay.relay.accountId, devices[name].id))!;
      return drainState(device, (await sentJobsByDevice(relay.db, relay.relay.accountId)).get(device.id) ?? 0);
    };

    it("names the job's device in X-Studio-Device on creation, status, output and cancel", async () => {
      const created = await create({ 'X-Studio-Device': devices.b.id });
      assert.equal(created.status, 200, created.body.toString());
      assert.equal(created.headers['x-studio-device'], devices.b.id);
      const id = created.json().id as string;
      await devices.b.link.assignment(id);
      const status = await request(`${relay.base}/jobs/${id}`, { headers: bearer(key) });
      assert.equal(status.headers['x-studio-device'], devices.b.id);
      await finish('b', id);
      const output = await request(`${relay.base}/jobs/${id}/output`, { headers: bearer(key) });
      assert.equal(output.status, 200);
      assert.equal(output.headers['x-studio-device'], devices.b.id);

      const automatic = await create();
      const device = automatic.headers['x-studio-device'];
      assert.ok(device === devices.a.id || device === devices.b.id, String(device));
      const cancelled = await request(`${relay.base}/jobs/${automatic.json().id}/cancel`, {
        method: 'POST',
        headers: bearer(key),
      });
      assert.equal(cancelled.headers['x-studio-device'], device);
      // As a real device does: it reports the cancelled job, which frees its place.
      const holder = device === devices.a.id ? devices.a : devices.b;
      holder.link.send({ type: 'update', jobId: automatic.json().id, status: 'cancelled', progress: 0, phase: null });
      // The body is the contract's, with no new member.
      assert.deepEqual(Object.keys(automatic.json()).sort(), Object.keys(created.json()).sort());
    });

    it('a drained device finishes what it was sent, takes no new job, shows drained, and is put back', async () => {
      const running = await create({ 'X-Studio-Device': devices.a.id });
      const runningId = running.json().id as string;
      await devices.a.link.assignment(runningId);
      devices.a.link.send({
        type: 'update',
        jobId: runningId,
        status: 'processing',
        progress: 10,
        phase: 'synthesizing',
      });

      const drain = await portal.post(`/portal/devices/${devices.a.id}/drain`, {}, '/portal/devices');
      assert.equal(drain.status, 302);
      assert.equal(await serviceOf('a'), 'draining');

      const named = assertErrorBody(await create({ 'X-Studio-Device': devices.a.id }), 503, 'DEVICE_OFFLINE');
      assert.match(named.error.message, /is draining/);
      for (let n = 0; n < 6; n++) {
        const automatic = await create();
        assert.equal(automatic.status, 200);
        assert.equal(automatic.headers['x-studio-device'], devices.b.id, 'automatic jobs go to the other device');
        const id = automatic.json().id as string;
        await devices.b.link.assignment(id);
        await finish('b', id);
      }

      await finish('a', runningId);
      assert.equal(await serviceOf('a'), 'drained');
      const page = await request(`${relay.origin}/portal/devices`, { headers: { Cookie: portal.cookie } });
      assert.match(
        page.body.toString(),
        new RegExp(`data-device="${devices.a.id}"[\\s\\S]*?<span class="service">drained</span>`),
      );

      const back = await portal.post(`/portal/devices/${devices.a.id}/undrain`, {}, '/portal/devices');
      assert.equal(back.status, 302);
      assert.equal(await serviceOf('a'), undefined);
      const again = await create({ 'X-Studio-Device': devices.a.id });
      assert.equal(again.status, 200, again.body.toString());
      const againId = again.json().id as string;
      await waitFor('the job sent to the device put back', () => devices.a.link.assignment(againId), Boolean);
      await finish('a', againId);
    });

    it("a key's pool given as labels takes the devices carrying them, present and future, and routes within it", async () => {
      const accountId = relay.relay.accountId;
      const gpuKey = await makeKey(relay.db, accountId, { pool: ['label:gpu'], maxConcurrentJobs: 100 });
      await setDeviceLabels(relay.db, accountId, devices.a.id, ['GPU', 'site:paris']);
      const createWith = (k: string, headers: Record<string, string> = {}) =>
        postJson(`${relay.base}/tts/jobs`, { voiceId: ENGLISH_VOICE, text: 'Labelled.' }, { ...bearer(k), ...headers });
      for (let n = 0; n < 6; n++) {
        const res = await createWith(gpuKey);
        assert.equal(res.status, 200, res.body.toString());
        assert.equal(res.headers['x-studio-device'], devices.a.id, 'only the labelled device is in the pool');
        const id = res.json().id as string;
        await devices.a.link.assignment(id);
        await finish('a', id, gpuKey);
      }
      assertErrorBody(await createWith(gpuKey, { 'X-Studio-Device': devices.b.id }), 403, 'DEVICE_NOT_ALLOWED');
      // A device labelled later joins the pool, with no change to the key.
      await setDeviceLabels(relay.db, accountId, devices.b.id, ['gpu']);
      const named = await createWith(gpuKey, { 'X-Studio-Device': devices.b.id });
      assert.equal(named.status, 200, named.body.toString());
      await devices.b.link.assignment(named.json().id);
      await finish('b', named.json().id, gpuKey);
      await setDeviceLabels(relay.db, accountId, devices.b.id, []);

      // Labels the capabilities imply: the fake devices speak English only.
      const english = await makeKey(relay.db, accountId, { pool: ['label:lang:en'] });
      const spoken = await createWith(english, { 'X-Studio-Device': devices.b.id });
      assert.equal(spoken.status, 200);
      await devices.b.link.assignment(spoken.json().id);
      await finish('b', spoken.json().id, english);
      const french = await makeKey(relay.db, accountId, { pool: ['label:lang:fr'] });
      assertErrorBody(await createWith(french), 503, 'NO_CAPABLE_DEVICE');
      await assert.rejects(
        createApiKey(relay.db, accountId, { name: 'x', scopes: ['tts.create'], pool: ['label:Not a label'] }),
        InvalidInputError,
      );
    });

    it('a saturated device takes turns between keys by weight: many queued jobs cannot starve one', async () => {
      const accountId = relay.relay.accountId;
      const b = devices.b;
      b.link.send({ type: 'heartbeat', capabilities: { ...b.link.capabilities(), queueCapacity: 1 } });
      const sentNow = async () =>
        relay.db.query<{ id: string }>(
          `SELECT id FROM jobs WHERE device_id = $1 AND dispatched_session IS NOT NULL AND status IN ('queued', 'loading_model', 'processing')`,
          [b.id],
        );
      await waitFor('the smaller queue', sentNow, (rows) => rows.length === 0);
      const pinned = async (k: string) => {
        const res = await postJson(
          `${relay.base}/tts/jobs`,
          { voiceId: ENGLISH_VOICE, text: 'Take turns.' },
          { ...bearer(k), 'X-Studio-Device': b.id },
        );
        assert.equal(res.status, 200, res.body.toString());
        return res.json().id as string;
      };
      const owner = new Map<string, string>();
      /** Finishes the one job the device holds, `count` times, and says whose each was. */
      const serve = async (count: number): Promise<string[]> => {
        const order: string[] = [];
        for (let n = 0; n < count; n++) {
          const [{ id }] = await waitFor('the next job sent', sentNow, (rows) => rows.length === 1);
          order.push(owner.get(id)!);
          await b.link.assignment(id);
          await finish('b', id, keys.get(owner.get(id)!));
        }
        return order;
      };
      const keys = new Map<string, string>();
      for (const name of ['many', 'one', 'heavy', 'light'])
        keys.set(name, await makeKey(relay.db, accountId, { name, maxConcurrentJobs: 100 }));
      /** Cancels the jobs of `names`. */
      const cancelAll = async (...names: string[]) => {
        const ids = [...owner].filter(([, name]) => names.includes(name)).map(([id]) => id);
        for (const id of ids)
          await request(`${relay.base}/jobs/${id}/cancel`, {
            method: 'POST',
            headers: bearer(keys.get(owner.get(id)!)!),
          });
        // As a real device does for the job it held; for the others the relay has nothing to change.
        for (const id of ids) b.link.send({ type: 'update', jobId: id, status: 'cancelled', progress: 0, phase: null });
        await waitFor('the jobs cancelled', sentNow, (rows) => rows.length === 0);
      };
      const queue = async (name: string, n: number) => {
        for (let i = 0; i < n; i++) owner.set(await pinned(keys.get(name)!), name);
      };

      await queue('many', 8);
      await queue('one', 1);
      assert.deepEqual(await serve(2), ['many', 'one'], 'the single job goes right after the first of the many');
      await cancelAll('many');

      const [{ id: heavyId }] = await relay.db.query<{ id: string }>(`SELECT id FROM api_keys WHERE name = 'heavy'`);
      await setKeyWeight(relay.db, accountId, heavyId, 2);
      await queue('heavy', 8);
      await queue('light', 4);
      const waiting = (await readRelayMetrics(relay.db, { now: Date.now(), offlineAfterMs: 30_000 })).keys;
      assert.deepEqual(
        waiting.map((k) => k.waiting).sort(),
        [4, 7],
        'per key: 7 heavy and 4 light wait (one heavy is on the device)',
      );
      assert.ok(waiting.every((k) => k.oldestWaitSeconds >= 0));
      const order = await serve(6);
      assert.deepEqual(
        [order.filter((o) => o === 'heavy').length, order.filter((o) => o === 'light').length],
        [4, 2],
        `weight 2 against 1: ${order.join(' ')}`,
      );
      await cancelAll('heavy', 'light');
    });
  });
}
