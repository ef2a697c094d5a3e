/**
 * Scenarios run on both backends: the concurrency storm, a device killed mid-job, a relay restarted
 * mid-job. Each takes the relay URL(s) to call and a database handle to look behind the API.
 */
import assert from 'node:assert/strict';
import type { Database } from '../../../src/relay/db/database';
import { isTerminal, postJson, request, waitFor, type RawResponse } from '../../helpers/server';
import { LONG_TEXT } from '../../helpers/voices';
import { bearer } from './relay';

export const ENGLISH_VOICE = '59ecd22d-96db-56b8-a0f4-62d14ba28a8b';
const isRunning = (job: { status: string }) => job.status === 'processing' || job.status === 'loading_model';

export const createTts = (base: string, key: string, text: string, device?: string): Promise<RawResponse> =>
  postJson(
    `${base}/tts/jobs`,
    { voiceId: ENGLISH_VOICE, text },
    { ...bearer(key), ...(device ? { 'X-Studio-Device': device } : {}) },
  );

export const readJob = async (base: string, key: string, id: string): Promise<any> =>
  (await request(`${base}/jobs/${id}`, { headers: bearer(key) })).json();

export const waitJob = (
  base: string,
  key: string,
  id: string,
  check: (job: any) => boolean,
  timeoutMs = 60_000,
): Promise<any> => waitFor(`job ${id}`, () => readJob(base, key, id), check, timeoutMs);

export async function deviceOf(db: Database, jobId: string): Promise<string | null> {
  const [row] = await db.query<{ device_id: string | null }>('SELECT device_id FROM jobs WHERE id = $1', [jobId]);
  return row?.device_id ?? null;
}

/** 50 creations at once (spread over `bases`) against a key allowing 2: exactly 2 are accepted. */
export async function concurrencyStorm(bases: string[], key: string, db: Database): Promise<void> {
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) => createTts(bases[i % bases.length], key, LONG_TEXT)),
  );
  const accepted = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status === 429);
  assert.equal(accepted.length, 2, answers.map((a) => `${a.status} ${a.body.toString().slice(0, 120)}`).join('\n'));
  assert.equal(refused.length, 48);
  for (const answer of refused) {
    const body = answer.json();
    assert.equal(body.error.code, 'CONCURRENCY_LIMIT');
    assert.equal(body.error.maxConcurrentJobs, 2);
    assert.ok(Number(answer.headers['retry-after']) >= 1);
  }
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM jobs j JOIN api_keys k ON k.id = j.key_id WHERE k.lookup = $1 AND j.status IN ('queued', 'loading_model', 'processing')`,
    [key.slice(0, 17)],
  );
  assert.equal(row.n, 2, 'two jobs of the key are active in the database');
  for (const answer of accepted)
    assert.equal((await postJson(`${bases[0]}/jobs/${answer.json().id}/cancel`, {}, bearer(key))).status, 200);
}

export interface TwoDevices {
  a: { id: string; kill(): Promise<void> };
  b: { id: string };
}

/**
 * Each device runs a long job and holds a short one queued; device A is killed. Its running job becomes
 * interrupted; its queued job moves to device B and succeeds there once B is free.
 */
export async function deviceKilledMidJob(base: string, key: string, db: Database, devices: TwoDevices): Promise<void> {
  const longA = (await createTts(base, key, LONG_TEXT, devices.a.id)).json();
  const longB = (await createTts(base, key, LONG_TEXT, devices.b.id)).json();
  await waitJob(base, key, longA.id, isRunning);
  await waitJob(base, key, longB.id, isRunning);
  const short1 = (await createTts(base, key, 'First queued sentence.')).json();
  const short2 = (await createTts(base, key, 'Second queued sentence.')).json();
  const placed = [await deviceOf(db, short1.id), await deviceOf(db, short2.id)].sort();
  assert.deepEqual(placed, [devices.a.id, devices.b.id].sort(), 'one short job waits on each device');
  const queuedOnA = (await deviceOf(db, short1.id)) === devices.a.id ? short1 : short2;

  await devices.a.kill();
  const interrupted = await waitJob(base, key, longA.id, isTerminal, 20_000);
  assert.equal(interrupted.status, 'interrupted');
  assert.match(interrupted.error, /lost its connection/);
  await waitFor(
    'the queued job to move',
    () => deviceOf(db, queuedOnA.id),
    (device) => device === devices.b.id,
    20_000,
  );

  assert.equal((await postJson(`${base}/jobs/${longB.id}/cancel`, {}, bearer(key))).status, 200);
  for (const job of [short1, short2]) assert.equal((await waitJob(base, key, job.id, isTerminal)).status, 'succeeded');
}

/**
 * A long job runs on the device while the relay it is linked to stops and starts again. The job becomes
 * interrupted; the device links up again by itself and runs the next job.
 */
export async function relayRestartedMidJob(
  base: () => string,
  key: string,
  deviceId: string,
  restart: () => Promise<void>,
  reconnected: () => Promise<void>,
  localJobs: () => Promise<Array<{ origin: string; status: string }>>,
): Promise<void> {
  const job = (await createTts(base(), key, LONG_TEXT, deviceId)).json();
  await waitJob(base(), key, job.id, isRunning);
  await restart();
  await reconnected();
  const ended = await waitJob(base(), key, job.id, isTerminal, 30_000);
  assert.equal(ended.status, 'interrupted');
  await waitFor(
    'the device to stop the job',
    localJobs,
    (jobs) => jobs.every((j) => j.origin !== 'remote' || !isRunning(j)),
    20_000,
  );
  const next = (await createTts(base(), key, 'After the restart.', deviceId)).json();
  assert.equal((await waitJob(base(), key, next.id, isTerminal)).status, 'succeeded');
}
