/**
 * The device link's edges on one relay: a device that stops heart-beating without closing its socket,
 * and a large upload streamed through the relay's storage to the device.
 */
import assert from 'node:assert/strict';
import { open, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { addCredits } from '../../src/relay/data/accounts';
import { uploadMultipart } from '../helpers/multipart';
import { isTerminal, request, tempDir, waitFor } from '../helpers/server';
import { startDevice, type TestDevice } from './helpers/device';
import { bearer, makeDevice, makeKey, startTestRelay, type TestRelay } from './helpers/relay';
import { createTts, ENGLISH_VOICE, waitJob } from './helpers/scenarios';

describe('device links', () => {
  let relay: TestRelay;
  let key: string;
  let scratch: string;
  before(async () => {
    relay = await startTestRelay({ offlineAfterMs: 1_500, sweepIntervalMs: 250, heartbeatMs: 500 });
    key = await makeKey(relay.db, relay.relay.accountId);
    scratch = await tempDir('speech-relay-scratch-');
  });
  after(async () => {
    await relay?.dispose();
    await rm(scratch, { recursive: true, force: true });
  });

  it('a device silent past the limit goes offline; the job it was running is interrupted', async () => {
    const { id, token } = await makeDevice(relay.db, relay.relay.accountId, 'goes quiet');
    const ws = new WebSocket(`${relay.origin.replace('http', 'ws')}/v1/devices/connect`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const voices = [
      {
        id: ENGLISH_VOICE,
        name: 'English (America)',
        languageCode: 'en-US',
        availability: 'ready',
        access: { scope: 'builtin', canUse: true, license: 'x' },
      },
    ];
    const assigned = new Promise<string>((resolve) =>
      ws.on('message', (data) => {
        const message = JSON.parse((data as Buffer).toString());
        if (message.type === 'welcome') void createTts(relay.base, key, 'Never finished.', id);
        if (message.type === 'assign') {
          ws.send(
            JSON.stringify({
              type: 'update',
              jobId: message.job.id,
              status: 'processing',
              progress: 10,
              phase: 'synthesizing',
            }),
          );
          resolve(message.job.id);
        }
      }),
    );
    ws.on('open', () =>
      ws.send(
        JSON.stringify({
          type: 'hello',
          protocol: 1,
          activeJobs: [],
          capabilities: { version: 'test', tts: { voices }, stt: { models: [], diarization: false }, queueCapacity: 1 },
        }),
      ),
    );
    const jobId = await assigned;
    try {
      const job = await waitJob(relay.base, key, jobId, isTerminal, 15_000);
      assert.equal(job.status, 'interrupted');
      const caps = (await request(`${relay.base}/capabilities`, { headers: bearer(key) })).json();
      assert.equal(caps.devices.ready, 0, 'the silent device is offline');
    } finally {
      ws.terminate();
    }
  });

  it("a 256 MB upload streams through the relay's storage to the device without being held in memory", async () => {
    const { token } = await makeDevice(relay.db, relay.relay.accountId, 'receiver');
    await addCredits(relay.db, relay.relay.accountId, 10_000); // 256 MB is estimated as over two hours of audio
    const device: TestDevice = await startDevice({ relayOrigin: relay.origin, token, stt: true });
    try {
      await device.connected();
      const file = path.join(scratch, 'large.wav');
      const handle = await open(file, 'w');
      await handle.truncate(256 * 1024 * 1024); // sparse: no memory, little disk
      await handle.close();
      const baseline = process.memoryUsage().rss;
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      let res;
      try {
        res = await uploadMultipart(
          `${relay.base}/stt/jobs`,
          { language: 'en' },
          { source: file, filename: 'large.wav' },
          bearer(key),
        );
      } finally {
        clearInterval(sampler);
      }
      assert.equal(res.status, 200, res.body.toString());
      assert.ok(
        peak - baseline < 96 * 1024 * 1024,
        `the relay process grew by ${Math.round((peak - baseline) / 1048576)} MB`,
      );
      const [row] = await relay.db.query<{ input_bytes: number }>('SELECT input_bytes FROM jobs WHERE id = $1', [
        res.json().id,
      ]);
      assert.equal(row.input_bytes, 256 * 1024 * 1024);
      // The device pulled all of it (then its engine refuses zeros as media: the job fails, the transfer counted).
      await waitJob(relay.base, key, res.json().id, isTerminal, 60_000);
      const local = await waitFor(
        "the device's copy",
        () => device.localJobs(),
        (jobs) => jobs.some((j) => j.origin === 'remote'),
        10_000,
      );
      const received = local.find((j) => j.origin === 'remote') as unknown as { input: { bytes: number } };
      assert.equal(received.input.bytes, 256 * 1024 * 1024);
    } finally {
      await device.dispose();
    }
  });
  it("a device restarted on its data directory keeps its remote jobs' records: none is set aside as damaged", async () => {
    const { token } = await makeDevice(relay.db, relay.relay.accountId, 'restarts');
    const first: TestDevice = await startDevice({ relayOrigin: relay.origin, token, stt: false });
    let second: TestDevice | undefined;
    try {
      await first.connected();
      const created = await createTts(relay.base, key, 'A remote job that outlives a restart.');
      assert.equal(created.status, 200, created.body.toString());
      assert.equal((await waitJob(relay.base, key, created.json().id, isTerminal)).status, 'succeeded');
      const before = (await first.localJobs()).filter((job) => job.origin === 'remote');
      assert.equal(before.length, 1);
      await first.kill();
      second = await startDevice({ relayOrigin: relay.origin, token, stt: false, dataDir: first.dataDir });
      await second.connected();
      assert.doesNotMatch(second.output(), /damaged/, second.output());
      assert.deepEqual(
        (await readdir(first.dataDir)).filter((name) => name.includes('.damaged-')),
        [],
      );
      const after = (await second.localJobs()).filter((job) => job.origin === 'remote');
      assert.deepEqual(
        after.map((job) => [job.id, job.status]),
        before.map((job) => [job.id, 'succeeded']),
      );
    } finally {
      await first.kill();
      await (second ?? first).dispose();
    }
  });
});
