/**
 * One relay with three enrolled devices, for the contract suites: `stt` (whisper + voices), `tts` (voices
 * only) and `offline` (enrolled, never connected). Runs on PGlite or on a PostgreSQL database URL.
 */
import { rm } from 'node:fs/promises';
import type { NewApiKey } from '../../../src/relay/data/api-keys';
import { ACTIVE_SQL } from '../../../src/relay/data/jobs';
import { postJson, request, waitFor, type RawResponse } from '../../helpers/server';
import { startDevice, type TestDevice } from './device';
import { bearer, makeDevice, makeKey, startTestRelay, type TestRelay } from './relay';

export interface Fixture {
  relay: TestRelay;
  accountId: number;
  stt: { id: string; device: TestDevice };
  tts: { id: string; device: TestDevice };
  offline: { id: string };
  key(input?: Partial<NewApiKey>): Promise<string>;
  get(path: string, key: string, headers?: Record<string, string>): Promise<RawResponse>;
  post(path: string, key: string, body: unknown, headers?: Record<string, string>): Promise<RawResponse>;
  job(key: string, id: string): Promise<any>;
  waitJob(key: string, id: string, check: (job: any) => boolean, timeoutMs?: number): Promise<any>;
  /** Resolves once no job of the relay is waiting or running. */
  idle(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startFixture(options: { databaseUrl?: string; maxUploadBytes?: number } = {}): Promise<Fixture> {
  const relay = await startTestRelay({ databaseUrl: options.databaseUrl, maxUploadBytes: options.maxUploadBytes });
  const accountId = relay.relay.accountId;
  const sttEnrolment = await makeDevice(relay.db, accountId, 'stt box');
  const ttsEnrolment = await makeDevice(relay.db, accountId, 'tts laptop');
  const offline = await makeDevice(relay.db, accountId, 'switched off');
  const [sttDevice, ttsDevice] = await Promise.all([
    startDevice({ relayOrigin: relay.origin, token: sttEnrolment.token, stt: true }),
    startDevice({ relayOrigin: relay.origin, token: ttsEnrolment.token, stt: false }),
  ]);
  await Promise.all([sttDevice.connected(), ttsDevice.connected()]);
  const get = (path: string, key: string, headers: Record<string, string> = {}) =>
    request(`${relay.base}${path}`, { headers: { ...bearer(key), ...headers } });
  const job = async (key: string, id: string) => (await get(`/jobs/${id}`, key)).json();
  return {
    relay,
    accountId,
    stt: { id: sttEnrolment.id, device: sttDevice },
    tts: { id: ttsEnrolment.id, device: ttsDevice },
    offline: { id: offline.id },
    key: (input) => makeKey(relay.db, accountId, input),
    get,
    post: (path, key, body, headers = {}) => postJson(`${relay.base}${path}`, body, { ...bearer(key), ...headers }),
    job,
    waitJob: (key, id, check, timeoutMs = 60_000) => waitFor(`job ${id}`, () => job(key, id), check, timeoutMs),
    async idle() {
      const active = async () =>
        (await relay.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE status IN ${ACTIVE_SQL}`))[0].n;
      await waitFor('no active jobs', active, (n) => n === 0, 60_000);
    },
    async dispose() {
      await Promise.all([sttDevice.dispose(), ttsDevice.dispose()]);
      await relay.stop();
      await rm(relay.dataDir, { recursive: true, force: true });
    },
  };
}
