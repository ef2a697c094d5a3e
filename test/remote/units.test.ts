import assert from 'node:assert/strict';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Voice } from '../../src/contract/types';
import { listPoolVoices } from '../../src/relay/api/voice-list';
import { resolveRelayOptions } from '../../src/relay/cli/relay-options';
import type { Device } from '../../src/relay/data/devices';
import { API_KEY_FORMAT, lookupOf, newSecret, secretMatches } from '../../src/relay/data/secret-token';
import { openDatabase } from '../../src/relay/db/open-database';
import { migrate } from '../../src/relay/db/migrate';
import { canRunStt, canRunTts, type DeviceCapabilities } from '../../src/link/capabilities';
import { settledMilli, sttEstimateMilli, ttsCostMilli } from '../../src/relay/dispatch/credits';
import { parseDeviceMessage } from '../../src/link/protocol';
import { pickDevice, type Candidate } from '../../src/relay/dispatch/routing';
import { linkUrl, relayOrigin } from '../../src/link/relay-address';
import { silentLogger } from '../../src/util/log';
import { PROJECT_ROOT } from '../helpers/server';
import { pgliteDataDir } from './helpers/relay';

const voice = (id: string, name: string, languageCode = 'en-US'): Voice => ({
  id,
  name,
  languageCode,
  availability: 'ready',
  access: { scope: 'builtin', canUse: true, license: 'GPL-3.0-or-later' },
});
const caps = (over: Partial<DeviceCapabilities> = {}): DeviceCapabilities => ({
  version: '1',
  tts: { voices: [voice('a0000000-0000-4000-8000-000000000000', 'A')] },
  stt: { models: [{ name: 'ggml-base.en.bin', englishOnly: true }], diarization: false },
  queueCapacity: 2,
  ...over,
});
const device = (
  id: string,
  capabilities: DeviceCapabilities | null,
  lastSeenAt: number | null = Date.now(),
): Device => ({
  id,
  accountId: 1,
  name: id,
  createdAt: 0,
  revokedAt: null,
  draining: false,
  labels: [],
  capabilities,
  sessionId: lastSeenAt === null ? null : 's',
  instanceId: 'i',
  connectedAt: 0,
  lastSeenAt,
});

describe('relay units', () => {
  it('API keys: ssk_live_ + 40 base62, found by a clear prefix, matched by hash in constant time', () => {
    const secret = newSecret(API_KEY_FORMAT);
    assert.match(secret.plaintext, /^ssk_live_[A-Za-z0-9]{40}$/);
    assert.equal(lookupOf(secret.plaintext, API_KEY_FORMAT), secret.plaintext.slice(0, 17));
    assert.ok(secretMatches(secret.plaintext, secret.hash));
    // One character changed (never to itself: a secret ending in x once in 62 runs made this test fail).
    const other = secret.plaintext.endsWith('x') ? 'y' : 'x';
    assert.ok(!secretMatches(`${secret.plaintext.slice(0, -1)}${other}`, secret.hash));
    for (const bad of ['', 'ssk_live_short', `ssk_test_${'a'.repeat(40)}`, `ssk_live_${'-'.repeat(40)}`])
      assert.equal(lookupOf(bad, API_KEY_FORMAT), undefined);
  });

  it('capabilities: English-only whisper models serve only English (auto runs as English); diarization only when asked explicitly', () => {
    assert.ok(canRunStt(caps(), { language: 'en' }, false));
    assert.ok(canRunStt(caps(), { language: 'auto' }, false), 'auto on English-only models means English');
    assert.ok(!canRunStt(caps(), { language: 'fr' }, false));
    assert.ok(!canRunStt(caps(), { language: 'en' }, true));
    assert.ok(canRunTts(caps(), 'A0000000-0000-4000-8000-000000000000'));
    assert.ok(!canRunTts(caps(), 'b0000000-0000-4000-8000-000000000000'));
  });

  it('routing: the ready, able device with the fewest jobs; never a silent or excluded one; a full one still queues', () => {
    const need = (c: DeviceCapabilities) => canRunStt(c, { language: 'en' }, false);
    const routing = { offlineAfterMs: 30_000 };
    const list: Candidate[] = [
      { device: device('busy', caps()), active: 1 },
      { device: device('idle', caps()), active: 0 },
      { device: device('silent', caps(), Date.now() - 60_000), active: 0 },
      { device: device('offline', caps(), null), active: 0 },
      { device: device('unable', caps({ stt: { models: [], diarization: false } })), active: 0 },
    ];
    assert.equal(pickDevice(list, need, routing)?.id, 'idle');
    assert.equal(pickDevice(list, need, routing, new Set(['idle']))?.id, 'busy');
    assert.equal(pickDevice([{ device: device('full', caps()), active: 5 }], need, routing)?.id, 'full');
    assert.equal(
      pickDevice([{ device: device('silent', caps(), Date.now() - 60_000), active: 0 }], need, routing),
      undefined,
    );
  });

  it('credits: 1 per 1 000 characters or per second of audio, estimated from the upload, settled on success only', () => {
    assert.equal(ttsCostMilli(2500), 2500);
    assert.equal(sttEstimateMilli(320_000, {}), 10_000);
    assert.equal(sttEstimateMilli(320_000, { cropStartSeconds: 2, cropEndSeconds: 5 }), 3000);
    const stt = { kind: 'stt' as const, text: null, credits_reserved_milli: 10_000, request: { options: {} } };
    assert.equal(
      settledMilli({
        ...stt,
        status: 'succeeded',
        result: {
          language: 'en',
          durationSeconds: 11.2,
          segmentCount: 3,
          speakerCount: null,
          transcriptFormats: [],
          model: 'ggml-base.bin',
        },
      }),
      11_200,
    );
    assert.equal(settledMilli({ ...stt, status: 'failed', result: null }), 0);
  });

  it('device messages: well-formed ones parse, anything else is refused', () => {
    assert.equal(
      parseDeviceMessage('{"type":"update","jobId":"x","status":"processing","progress":5,"phase":"synthesizing"}')
        ?.type,
      'update',
    );
    for (const bad of [
      'nope',
      '{"type":"update","jobId":"x","status":"done","progress":5,"phase":null}',
      '{"type":"hello"}',
      '{"type":"launch"}',
    ]) {
      assert.equal(parseDeviceMessage(bad), undefined, bad);
    }
  });

  it('relay URLs: with or without /v1, http or https, to the device link', () => {
    assert.equal(linkUrl(relayOrigin('https://relay.example.com/v1/')), 'wss://relay.example.com/v1/devices/connect');
    assert.equal(linkUrl(relayOrigin('http://10.0.0.2:17880/speech')), 'ws://10.0.0.2:17880/speech/v1/devices/connect');
    assert.throws(() => relayOrigin('ftp://x'), TypeError);
  });

  it('relay options: flags over RELAY_* and DATABASE_URL, which win over the defaults', () => {
    const options = resolveRelayOptions(
      { port: '9000' },
      { RELAY_PORT: '1', DATABASE_URL: 'postgres://u@h/db', XDG_DATA_HOME: '/d', RELAY_RETENTION_HOURS: '2' },
    );
    assert.deepEqual(
      [options.port, options.databaseUrl, options.dataDir, options.retentionMs],
      [9000, 'postgres://u@h/db', '/d/speech-studio-relay', 7_200_000],
    );
    assert.throws(() => resolveRelayOptions({ 'database-url': 'mysql://x' }, {}));
  });

  it("voices of a pool: listed once each, with the Local API's filters and pages", () => {
    const voices = [
      voice('a1', 'Alpha'),
      voice('b2', 'Beta', 'de-DE'),
      voice('a1', 'Alpha'),
      voice('c3', 'Gamma', 'en-GB'),
    ];
    const page = listPoolVoices(voices, {
      scope: 'all',
      sortBy: 'name',
      sortDirection: 'desc',
      page: 1,
      limit: 2,
      languageCode: 'en',
    });
    assert.deepEqual(
      page.items.map((v) => v.name),
      ['Gamma', 'Alpha'],
    );
    assert.deepEqual(page.meta, { page: 1, limit: 2, total: 2, totalPages: 1 });
  });

  it('migrations: applied once, a second run does nothing, a newer schema is refused', async () => {
    const dir = await pgliteDataDir();
    const db = await openDatabase({ dataDir: dir, log: silentLogger });
    try {
      assert.deepEqual(await migrate(db), []);
      await db.query(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)`);
      await assert.rejects(migrate(db), /newer than this relay knows/);
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
  it("the relay's SQL lives in src/relay/data (and the database seam in src/relay/db): routes, dispatch and portal call functions there", async () => {
    const root = path.join(PROJECT_ROOT, 'src', 'relay');
    const files = (await readdir(root, { recursive: true })).filter((name) => name.endsWith('.ts'));
    const outside = files.filter((name) => !/^(data|db)[\\/]/.test(name));
    assert.ok(
      outside.some((name) => name.includes('sweeper')),
      'the scan sees the dispatch folder',
    );
    const offenders: string[] = [];
    for (const name of outside) {
      const text = await readFile(path.join(root, name), 'utf8');
      const sql = /\.query\s*[<(]|\b(SELECT|INSERT INTO|DELETE FROM|UPDATE \w+ SET)\b/.exec(text);
      if (sql) offenders.push(`${name}: ${sql[0]}`);
    }
    assert.deepEqual(offenders, []);
  });
});
