/**
 * What the relay keeps of what callers and devices send it (issue #40), on PGlite or PostgreSQL: the storage
 * quota counts files, not multipart bodies, and a device's output too; a device's success stands only with
 * its output stored and a result of the contract's shape, bounded in size.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getAccount, setStorageQuota } from '../../../src/relay/data/accounts';
import { uploadMultipart } from '../../helpers/multipart';
import { assertErrorBody, postJson, request, waitForJob } from '../../helpers/server';
import { connectFakeDevice, type FakeDevice } from './fake-device';
import { bearer, makeDevice, makeKey, startTestRelay, type TestRelay } from './relay';
import type { RelayOptions } from '../../../src/relay/relay-server';
import { ENGLISH_VOICE } from './scenarios';

const TTS_RESULT = {
  mediaType: 'audio/wav',
  outputFormat: 'wav',
  sampleRate: 22050,
  audioChannels: 'mono',
  durationSeconds: 1.5,
  bytes: 1000,
  voice: { name: 'English', engine: 'espeak-ng', languageCode: 'en-US' },
};

export function describeDeviceReports(
  label: string,
  setUp: () => Promise<{ options: Partial<RelayOptions>; stop(): Promise<void> }>,
): void {
  describe(`what the relay keeps from callers and devices (${label})`, () => {
    let relay: TestRelay;
    let stopDatabase: () => Promise<void>;
    let key: string;
    let device: FakeDevice;
    let deviceToken: string;
    before(async () => {
      const database = await setUp();
      stopDatabase = () => database.stop();
      relay = await startTestRelay(database.options);
      key = await makeKey(relay.db, relay.relay.accountId);
      deviceToken = (await makeDevice(relay.db, relay.relay.accountId, 'reporter')).token;
      device = await connectFakeDevice(relay.origin, deviceToken);
    });
    after(async () => {
      device?.close();
      await relay?.dispose();
      await stopDatabase?.();
    });

    const account = () => getAccount(relay.db, relay.relay.accountId);
    const newTtsJob = async (): Promise<string> => {
      const res = await postJson(`${relay.base}/tts/jobs`, { voiceId: ENGLISH_VOICE, text: 'Two words.' }, bearer(key));
      assert.equal(res.status, 200, res.body.toString());
      const id = res.json().id as string;
      await device.assignment(id);
      return id;
    };
    const putOutput = async (jobId: string, body: Buffer) =>
      request(`${relay.origin}/v1/device/jobs/${jobId}/output`, {
        method: 'PUT',
        headers: { ...bearer(deviceToken), 'Content-Type': 'application/octet-stream' },
        body,
      });
    const succeed = (jobId: string, result: unknown) =>
      device.send({ type: 'update', jobId, status: 'succeeded', progress: 100, phase: null, result });
    const ended = (jobId: string) =>
      waitForJob(relay.base, jobId, (j) => ['succeeded', 'failed'].includes(j.status), 20_000, bearer(key));

    it('takes an upload whose file fits the storage quota, though its multipart body is larger', async () => {
      const used = (await account()).storageUsedBytes;
      const file = Buffer.alloc(4000, 1);
      await setStorageQuota(relay.db, relay.relay.accountId, used + file.length + 10);
      try {
        const res = await uploadMultipart(
          `${relay.base}/stt/jobs`,
          { language: 'en' },
          { source: file, filename: 'fits.wav' },
          bearer(key),
        );
        assert.equal(res.status, 200, res.body.toString());
        assert.equal((await account()).storageUsedBytes, used + file.length, 'the file is held, not the body');
        const id = res.json().id as string;
        await device.assignment(id);
        device.send({ type: 'update', jobId: id, status: 'failed', progress: 0, phase: null, error: 'not needed' });
        await ended(id);
      } finally {
        await setStorageQuota(relay.db, relay.relay.accountId, 10 * 1024 ** 3);
      }
    });

    it("keeps a device's result as the contract describes it: foreign members dropped", async () => {
      const id = await newTtsJob();
      assert.equal((await putOutput(id, Buffer.alloc(1000, 2))).status, 204);
      succeed(id, { ...TTS_RESULT, secret: 'x', voice: { ...TTS_RESULT.voice, extra: 1 } });
      const job = await ended(id);
      assert.equal(job.status, 'succeeded', job.error);
      assert.deepEqual(job.result, TTS_RESULT);
    });

    it('fails a job whose device reports a result of another shape, or a huge one, and serves none of it', async () => {
      const wrong = await newTtsJob();
      assert.equal((await putOutput(wrong, Buffer.alloc(100, 2))).status, 204);
      succeed(wrong, {
        language: 'en',
        durationSeconds: 1,
        segmentCount: 1,
        speakerCount: null,
        transcriptFormats: [],
      });
      const wrongJob = await ended(wrong);
      assert.equal(wrongJob.status, 'failed');
      assert.equal(wrongJob.result, null);
      assert.match(
        wrongJob.error,
        /reported success, but its result is not one the API can serve \(mediaType: is required\)/,
      );

      const huge = await newTtsJob();
      assert.equal((await putOutput(huge, Buffer.alloc(100, 2))).status, 204);
      succeed(huge, { ...TTS_RESULT, language: 'e'.repeat(3 * 1024 * 1024) });
      const hugeJob = await ended(huge);
      assert.equal(hugeJob.status, 'failed');
      assert.match(hugeJob.error, /larger than \d+ bytes/);
      assert.equal(hugeJob.result, null);
    });

    it('fails a job reported succeeded when its output never arrived', async () => {
      const id = await newTtsJob();
      succeed(id, TTS_RESULT);
      const job = await ended(id);
      assert.equal(job.status, 'failed');
      assert.match(job.error, /reported success, but its output never reached the relay/);
      assertErrorBody(
        await request(`${relay.base}/jobs/${id}/output`, { headers: bearer(key) }),
        409,
        'JOB_NOT_COMPLETED',
      );
    });

    it("refuses a device's output past the account's storage quota, and fails its job", async () => {
      const id = await newTtsJob();
      const used = (await account()).storageUsedBytes;
      await setStorageQuota(relay.db, relay.relay.accountId, used + 1000);
      try {
        assertErrorBody(await putOutput(id, Buffer.alloc(5 * 1024 * 1024, 3)), 413, 'STORAGE_QUOTA_EXCEEDED');
        assert.equal((await account()).storageUsedBytes, used, 'nothing of it is held');
        const job = await ended(id);
        assert.equal(job.status, 'failed');
        assert.match(job.error, /storage quota/);
        // An output that fits is still taken.
        const small = await newTtsJob();
        assert.equal((await putOutput(small, Buffer.alloc(900, 3))).status, 204);
        assert.equal((await account()).storageUsedBytes, used + 900);
      } finally {
        await setStorageQuota(relay.db, relay.relay.accountId, 10 * 1024 ** 3);
      }
    });
  });
}
