/**
 * The whole (B) table of statuses and codes, against one relay with real devices. Defined once and run
 * on PGlite (api-contract.pglite.test.ts) and on PostgreSQL (api-contract.postgres.test.ts).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addCredits, getAccount, setStorageQuota } from '../../../src/relay/data/accounts';
import { revokeApiKey } from '../../../src/relay/data/api-keys';
import { uploadMultipart } from '../../helpers/multipart';
import { assertErrorBody, isTerminal, request } from '../../helpers/server';
import { testModel } from '../../helpers/test-models';
import { LONG_TEXT } from '../../helpers/voices';
import { startFixture, type Fixture } from './fixture';
import { bearer } from './relay';

const JFK = testModel('audio/jfk.wav');
const isRunning = (job: { status: string }) => job.status === 'processing' || job.status === 'loading_model';

export function describeRelayContract(
  label: string,
  backend: () => Promise<{ databaseUrl?: string; stop(): Promise<void> }>,
): void {
  describe(`Remote API contract on ${label}`, () => {
    let f: Fixture;
    let stopBackend: () => Promise<void>;
    let voiceId: string;
    let full: string;
    const stt = (
      key: string,
      fields: Record<string, string> = {},
      headers: Record<string, string> = {},
      file: { source: string | Buffer; filename: string } = { source: JFK, filename: 'jfk.wav' },
    ) =>
      uploadMultipart(`${f.relay.base}/stt/jobs`, { language: 'en', ...fields }, file, { ...bearer(key), ...headers });
    const tts = (key: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
      f.post('/tts/jobs', key, { voiceId, text: 'Hello through the relay.', ...body }, headers);

    before(async () => {
      const started = await backend();
      stopBackend = () => started.stop();
      f = await startFixture({ databaseUrl: started.databaseUrl, maxUploadBytes: 1024 * 1024 });
      full = await f.key();
      const page = (await f.get('/voices?languageCode=en-US&limit=100', full)).json();
      voiceId = page.items.find((v: { name: string }) => v.name === 'English (America)').id;
    });
    after(async () => {
      await f?.dispose();
      await stopBackend?.();
    });

    it('GET /health and /openapi.json answer without a key', async () => {
      const health = await request(`${f.relay.base}/health`);
      assert.deepEqual(health.json(), { status: 'ok', service: 'studio-remote-api', apiVersion: 'v1' });
      const doc = (await request(`${f.relay.base}/openapi.json`)).json();
      assert.equal(doc.openapi, '3.1.0');
      assert.ok(doc.paths['/jobs/{id}/cancel'] && doc.components.schemas.TtsRequest);
      assert.deepEqual(
        doc.servers.map((s: { url: string }) => s.url),
        [f.relay.base],
        'servers names the address the request reached',
      );
    });

    it('401 INVALID_API_KEY for a missing, malformed, wrong, expired or revoked key', async () => {
      assertErrorBody(await request(`${f.relay.base}/capabilities`), 401, 'INVALID_API_KEY');
      assertErrorBody(await f.get('/capabilities', 'not-a-key'), 401, 'INVALID_API_KEY');
      assertErrorBody(await f.get('/capabilities', `ssk_live_${'A'.repeat(40)}`), 401, 'INVALID_API_KEY');
      assertErrorBody(
        await f.get('/capabilities', `${full.slice(0, -1)}${full.endsWith('A') ? 'B' : 'A'}`),
        401,
        'INVALID_API_KEY',
      );
      const expiring = await f.key({ expiresAt: Date.now() + 60_000 });
      assert.equal((await f.get('/capabilities', expiring)).status, 200);
      await f.relay.db.query('UPDATE api_keys SET expires_at = $1 WHERE lookup = $2', [
        Date.now() - 1,
        expiring.slice(0, 17),
      ]);
      assertErrorBody(await f.get('/capabilities', expiring), 401, 'INVALID_API_KEY');
      const revoked = await f.key();
      assert.equal((await f.get('/capabilities', revoked)).status, 200);
      const [row] = await f.relay.db.query<{ id: string }>('SELECT id FROM api_keys WHERE lookup = $1', [
        revoked.slice(0, 17),
      ]);
      assert.ok(await revokeApiKey(f.relay.db, f.accountId, row.id));
      assertErrorBody(await f.get('/capabilities', revoked), 401, 'INVALID_API_KEY');
    });

    it('403 INSUFFICIENT_SCOPE on each operation whose scope the key lacks', async () => {
      const capabilitiesOnly = await f.key({ scopes: ['capabilities.read'] });
      const created = (await tts(full)).json();
      const id = created.id;
      for (const response of [
        await f.get('/voices', capabilitiesOnly),
        await tts(capabilitiesOnly),
        await stt(capabilitiesOnly),
        await f.get(`/jobs/${id}`, capabilitiesOnly),
        await f.post(`/jobs/${id}/cancel`, capabilitiesOnly, {}),
        await f.get(`/jobs/${id}/output`, capabilitiesOnly),
        await f.get(`/jobs/${id}/transcript`, capabilitiesOnly),
        await f.get('/capabilities', await f.key({ scopes: ['voices.read'] })),
      ])
        assertErrorBody(response, 403, 'INSUFFICIENT_SCOPE');
      await f.waitJob(full, id, isTerminal);
    });

    it('GET /capabilities describes the pool; GET /voices lists the voices of its ready devices', async () => {
      const caps = (await f.get('/capabilities', full)).json();
      const { estimates, ...devices } = caps.devices;
      assert.deepEqual(
        { ...caps, devices },
        {
          apiVersion: 'v1',
          authEnabled: true,
          ttsEnabled: true,
          sttEnabled: true,
          models: { ttsInstalled: true, sttInstalled: true },
          devices: { total: 3, ready: 2 },
        },
      );
      // Routing's view of each device: the speeds they measured depend on the machine, their shape does not.
      assert.deepEqual(
        estimates.map((e: any) => [e.id, e.name, e.ready]).sort(),
        [
          [f.stt.id, 'stt box', true],
          [f.tts.id, 'tts laptop', true],
          [f.offline.id, 'switched off', false],
        ].sort(),
      );
      for (const e of estimates) {
        assert.ok(
          Number.isInteger(e.jobsAhead) &&
            (e.busySeconds === null || e.busySeconds >= 0) &&
            Array.isArray(e.realTimeFactors),
          JSON.stringify(e),
        );
        for (const r of e.realTimeFactors)
          assert.ok(['tts', 'stt'].includes(r.kind) && r.realTimeFactor > 0 && r.samples >= 1, JSON.stringify(r));
      }
      const ttsOnly = await f.key({ pool: [f.tts.id, f.offline.id], scopes: ['capabilities.read', 'voices.read'] });
      const narrow = (await f.get('/capabilities', ttsOnly)).json();
      const { estimates: narrowEstimates, ...narrowDevices } = narrow.devices;
      assert.deepEqual(
        [narrow.ttsEnabled, narrow.sttEnabled, narrow.models, narrowDevices],
        [false, false, { ttsInstalled: true, sttInstalled: false }, { total: 2, ready: 1 }],
      );
      assert.deepEqual(
        narrowEstimates.map((e: any) => e.id).sort(),
        [f.tts.id, f.offline.id].sort(),
        "only the key's pool",
      );
      const page = (await f.get('/voices?search=english&limit=5&sortDirection=desc', ttsOnly)).json();
      assert.equal(page.items.length, 5);
      assert.ok(page.meta.total >= 5 && page.items.every((v: { availability: string }) => v.availability === 'ready'));
      assertErrorBody(await f.get('/voices?limit=500', ttsOnly), 422, 'INVALID_REQUEST');
    });

    it('a TTS job runs on a device, its WAV comes back, and its credits are settled', async () => {
      const before = (await getAccount(f.relay.db, f.accountId)).credits;
      const res = await tts(full, { text: 'Remote narration.' });
      assert.equal(res.status, 200, res.body.toString());
      assert.equal(res.json().status, 'queued');
      const job = await f.waitJob(full, res.json().id, isTerminal);
      assert.equal(job.status, 'succeeded', job.error);
      assert.equal(job.result.mediaType, 'audio/wav');
      assert.ok(job.startedAt >= job.createdAt && job.finishedAt >= job.startedAt);
      const output = await f.get(`/jobs/${job.id}/output`, full);
      assert.equal(output.status, 200);
      assert.equal(output.headers['content-type'], 'audio/wav');
      assert.equal(output.body.subarray(0, 4).toString(), 'RIFF');
      assert.equal(output.body.length, job.result.bytes);
      const spent = before - (await getAccount(f.relay.db, f.accountId)).credits;
      assert.ok(Math.abs(spent - 'Remote narration.'.length / 1000) < 1e-9, `spent ${spent}`);
      assertErrorBody(await f.get(`/jobs/${job.id}/transcript`, full), 409, 'WRONG_JOB_KIND');
      assertErrorBody(await f.post(`/jobs/${job.id}/cancel`, full, {}), 422, 'JOB_NOT_ACTIVE');
    });

    it('an STT job goes to the device with a model, and every transcript format comes back', async () => {
      const res = await stt(full, { diarizationEnabled: 'false' });
      assert.equal(res.status, 200, res.body.toString());
      const job = await f.waitJob(full, res.json().id, isTerminal);
      assert.equal(job.status, 'succeeded', job.error);
      assert.equal(job.backend, 'whisper.cpp');
      assert.equal(job.name, 'jfk.wav');
      const [row] = await f.relay.db.query<{ device_id: string; input_blob: string | null }>(
        'SELECT device_id, input_blob FROM jobs WHERE id = $1',
        [job.id],
      );
      assert.deepEqual(row, { device_id: f.stt.id, input_blob: null }, 'ran on the STT device; its input is gone');
      for (const [format, type] of [
        ['txt', 'text/plain'],
        ['srt', 'application/x-subrip'],
        ['vtt', 'text/vtt'],
        ['json-simple', 'application/json'],
        ['json-full', 'application/json'],
      ]) {
        const transcript = await f.get(`/jobs/${job.id}/transcript?format=${format}`, full);
        assert.equal(transcript.status, 200, format);
        assert.ok(
          String(transcript.headers['content-type']).startsWith(type),
          `${format}: ${transcript.headers['content-type']}`,
        );
      }
      assert.equal(
        JSON.parse((await f.get(`/jobs/${job.id}/transcript`, full)).body.toString()).backend,
        'whisper.cpp',
      );
      assertErrorBody(await f.get(`/jobs/${job.id}/transcript?format=docx`, full), 422, 'INVALID_REQUEST');
      assertErrorBody(await f.get(`/jobs/${job.id}/output`, full), 409, 'WRONG_JOB_KIND');
    });

    it("remote jobs run with origin remote and stay out of the device's Local API", async () => {
      const local = (await f.stt.device.localJobs()).filter((job) => job.origin === 'remote');
      assert.ok(local.length > 0, 'the device ran remote jobs');
      for (const job of local) assert.equal((await request(`${f.stt.device.localBase}/jobs/${job.id}`)).status, 404);
    });

    it('422 INVALID_REQUEST for an unknown field, a bad STT option, or a body that is not JSON', async () => {
      assert.match(
        assertErrorBody(await tts(full, { colour: 'blue' }), 422, 'INVALID_REQUEST').error.message,
        /colour/,
      );
      assertErrorBody(
        await request(`${f.relay.base}/tts/jobs`, {
          method: 'POST',
          headers: { ...bearer(full), 'Content-Type': 'application/json' },
          body: '{"voiceId":',
        }),
        422,
        'INVALID_REQUEST',
      );
      assert.match(
        assertErrorBody(await stt(full, { speakerCount: '3' }), 422, 'INVALID_REQUEST').error.message,
        /speakerCount/,
      );
      assertErrorBody(await f.get('/jobs/not-a-uuid', full), 404, 'JOB_NOT_FOUND');
    });

    it("refuses at creation what admission refuses (the Local API's rules): unreadable or too long subtitles, blank text, an unknown language, an exact speakerCount no device can diarize", async () => {
      const refused = async (res: Awaited<ReturnType<typeof tts>>, status: number, code: string, message: RegExp) =>
        assert.match(assertErrorBody(res, status, code).error.message, message);
      await refused(
        await tts(full, { text: '1\n00:00:01,000 --> 00:0x:02,000\nHello.\n', inputFormat: 'srt' }),
        422,
        'INVALID_REQUEST',
        /^text: not valid SRT, line 2: /,
      );
      await refused(
        await tts(full, { text: '1\n99:00:00,000 --> 99:00:01,000\nFar.\n', inputFormat: 'srt' }),
        422,
        'INVALID_REQUEST',
        /^text: cue 1 \(line 2\) ends at 99:00:01,000/,
      );
      await refused(await tts(full, { text: ' \n ' }), 422, 'INVALID_REQUEST', /^text: has nothing to speak/);
      await refused(
        await stt(full, { language: 'xx' }),
        422,
        'INVALID_REQUEST',
        /^language: xx is not a language whisper transcribes/,
      );
      await refused(
        await stt(full, { speakerCountMode: 'exact', speakerCount: '2' }),
        503,
        'NO_CAPABLE_DEVICE',
        /with diarization/,
      );
    });

    it('422 INVALID_REQUEST naming the field for NUL (U+0000), which the database cannot store: never a 500', async () => {
      assert.match(
        assertErrorBody(await tts(full, { text: 'a\u0000b' }), 422, 'INVALID_REQUEST').error.message,
        /^text: must not contain the NUL/,
      );
      const named = await stt(full, {}, {}, { source: JFK, filename: 'x.wav"; filename*=UTF-8\'\'a%00b.wav; x="' });
      assert.match(
        assertErrorBody(named, 422, 'INVALID_REQUEST').error.message,
        /^file: its file name must not contain the NUL/,
      );
    });

    it('X-Studio-Device routes to the named device, or answers DEVICE_NOT_ALLOWED, DEVICE_OFFLINE, NO_CAPABLE_DEVICE', async () => {
      const named = await tts(full, {}, { 'X-Studio-Device': f.tts.id });
      assert.equal(named.status, 200, named.body.toString());
      await f.waitJob(full, named.json().id, (job) => job.status === 'succeeded');
      const [row] = await f.relay.db.query<{ device_id: string }>('SELECT device_id FROM jobs WHERE id = $1', [
        named.json().id,
      ]);
      assert.equal(row.device_id, f.tts.id);

      const ttsPool = await f.key({ pool: [f.tts.id, f.offline.id] });
      assertErrorBody(await tts(ttsPool, {}, { 'X-Studio-Device': f.stt.id }), 403, 'DEVICE_NOT_ALLOWED');
      assertErrorBody(await tts(ttsPool, {}, { 'X-Studio-Device': 'dev_0000000000000000' }), 403, 'DEVICE_NOT_ALLOWED');
      assert.equal(
        assertErrorBody(await tts(ttsPool, {}, { 'X-Studio-Device': f.offline.id }), 503, 'DEVICE_OFFLINE').error.code,
        'DEVICE_OFFLINE',
      );
      assertErrorBody(await stt(ttsPool), 503, 'NO_CAPABLE_DEVICE');
      assertErrorBody(await stt(full, {}, { 'X-Studio-Device': f.tts.id }), 503, 'NO_CAPABLE_DEVICE');
      assertErrorBody(await tts(full, { voiceId: '00000000-0000-4000-8000-000000000000' }), 503, 'NO_CAPABLE_DEVICE');
      assertErrorBody(await tts(await f.key({ pool: [f.offline.id] })), 503, 'NO_CAPABLE_DEVICE');
    });

    it("jobs beyond a device's queue wait at the relay and all run there", async () => {
      const many = await f.key({ maxConcurrentJobs: 20 });
      const created = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          tts(many, { text: `Queued sentence ${i + 1}.` }, { 'X-Studio-Device': f.tts.id }),
        ),
      );
      assert.ok(
        created.every((r) => r.status === 200),
        created.map((r) => r.status).join(' '),
      );
      for (const res of created) assert.equal((await f.waitJob(many, res.json().id, isTerminal)).status, 'succeeded');
    });

    it("429 RATE_LIMITED past the key's requests per minute, with Retry-After", async () => {
      const limited = await f.key({ rpm: 3 });
      for (let i = 0; i < 3; i++) assert.equal((await f.get('/capabilities', limited)).status, 200);
      const refused = await f.get('/capabilities', limited);
      assertErrorBody(refused, 429, 'RATE_LIMITED');
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.equal((await f.get('/capabilities', full)).status, 200, 'other keys are not limited');
    });

    it('429 CONCURRENCY_LIMIT carries maxConcurrentJobs; cancelling frees the place', async () => {
      const one = await f.key({ maxConcurrentJobs: 1 });
      const running = (await tts(one, { text: LONG_TEXT }, { 'X-Studio-Device': f.tts.id })).json();
      await f.waitJob(one, running.id, isRunning);
      const refused = assertErrorBody(await tts(one), 429, 'CONCURRENCY_LIMIT');
      assert.equal(refused.error.maxConcurrentJobs, 1);
      assertErrorBody(await stt(one), 429, 'CONCURRENCY_LIMIT');
      const cancelled = await f.post(`/jobs/${running.id}/cancel`, one, {});
      assert.equal(cancelled.status, 200);
      assert.equal(cancelled.json().status, 'cancelled');
      assertErrorBody(await f.get(`/jobs/${running.id}/output`, one), 409, 'JOB_NOT_COMPLETED');
      assert.equal((await tts(one)).status, 200, 'the place is free again');
    });

    it('402 INSUFFICIENT_CREDITS when the balance does not cover the job', async () => {
      const balance = (await getAccount(f.relay.db, f.accountId)).credits;
      await addCredits(f.relay.db, f.accountId, -balance + 0.005);
      try {
        assertErrorBody(await tts(full, { text: 'x'.repeat(50) }), 402, 'INSUFFICIENT_CREDITS');
        assertErrorBody(await stt(full), 402, 'INSUFFICIENT_CREDITS');
      } finally {
        await addCredits(f.relay.db, f.accountId, balance - 0.005);
      }
      assert.equal((await tts(full)).status, 200);
    });

    it('413 STORAGE_QUOTA_EXCEEDED when the files do not fit, FILE_TOO_LARGE past the upload limit', async () => {
      await f.idle();
      const account = await getAccount(f.relay.db, f.accountId);
      await setStorageQuota(f.relay.db, f.accountId, account.storageUsedBytes + 1000);
      try {
        assertErrorBody(await stt(full), 413, 'STORAGE_QUOTA_EXCEEDED');
        await setStorageQuota(f.relay.db, f.accountId, account.storageUsedBytes);
        assertErrorBody(await tts(full), 413, 'STORAGE_QUOTA_EXCEEDED');
      } finally {
        await setStorageQuota(f.relay.db, f.accountId, account.storageQuotaBytes);
      }
      const big = { source: Buffer.alloc(1024 * 1024 + 10, 1), filename: path.basename('big.wav') };
      assertErrorBody(await stt(full, {}, {}, big), 413, 'FILE_TOO_LARGE');
      const after = await getAccount(f.relay.db, f.accountId);
      assert.equal(after.storageUsedBytes, account.storageUsedBytes, 'refused uploads hold no storage');
    });

    it('404 JOB_NOT_FOUND for a job of another key', async () => {
      const job = (await tts(full)).json();
      const other = await f.key();
      for (const p of [`/jobs/${job.id}`, `/jobs/${job.id}/output`, `/jobs/${job.id}/transcript`])
        assertErrorBody(await f.get(p, other), 404, 'JOB_NOT_FOUND');
      assertErrorBody(await f.post(`/jobs/${job.id}/cancel`, other, {}), 404, 'JOB_NOT_FOUND');
      await f.waitJob(full, job.id, isTerminal);
    });
  });
}
