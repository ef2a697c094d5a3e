/**
 * `node dist/relay.js keys|devices|credits|storage …`: the portal's administration from a terminal, on the
 * embedded database (while no relay holds it) and on PostgreSQL (any time).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { request } from '../helpers/server';
import { postgresMissingReason, startPostgres, type PostgresCluster } from './helpers/postgres';
import { bearer, pgliteDataDir, RELAY_CLI, startTestRelay } from './helpers/relay';

function relayCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [RELAY_CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

describe('relay administration from the terminal on PGlite', () => {
  let dataDir: string;
  before(async () => (dataDir = await pgliteDataDir()));
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('enrols a device and creates a key (each shown once), refuses while a relay holds the data folder', async () => {
    const enrol = await relayCli(['devices', 'enrol', '--name', 'gpu box', '--data-dir', dataDir]);
    assert.equal(enrol.code, 0, enrol.stderr);
    const [deviceId, token] = enrol.stdout.trim().split(' ');
    assert.match(deviceId, /^dev_[A-Za-z0-9]{16}$/);
    assert.match(token, /^ssd_[A-Za-z0-9]{40}$/);
    assert.match(enrol.stderr, /shown only this once/);

    const created = await relayCli([
      'keys',
      'create',
      '--name',
      'ci',
      '--scopes',
      'capabilities.read,jobs.read',
      '--pool',
      deviceId,
      '--expires',
      new Date(Date.now() + 86_400_000).toISOString(),
      '--rpm',
      '30',
      '--concurrency',
      '3',
      '--data-dir',
      dataDir,
    ]);
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim();
    assert.match(key, /^ssk_live_[A-Za-z0-9]{40}$/);

    const relay = await startTestRelay({ dataDir });
    try {
      const caps = await request(`${relay.base}/capabilities`, { headers: bearer(key) });
      assert.equal(caps.status, 200);
      assert.equal(caps.headers['x-ratelimit-limit'], '30');
      const busy = await relayCli(['keys', 'list', '--data-dir', dataDir]);
      assert.equal(busy.code, 1);
      assert.match(busy.stderr, /in use by process \d+/);
    } finally {
      await relay.stop();
    }
    const list = await relayCli(['keys', 'list', '--json', '--data-dir', dataDir]);
    const [listed] = JSON.parse(list.stdout);
    assert.equal(listed.name, 'ci');
    assert.deepEqual(listed.pool, [deviceId]);
    assert.ok(!list.stdout.includes(key), 'the key itself is never printed again');
  });
});

describe('relay administration from the terminal on PostgreSQL', { skip: postgresMissingReason() }, () => {
  let cluster: PostgresCluster;
  let url: string;
  before(async () => {
    cluster = await startPostgres();
    url = await cluster.createDatabase();
  });
  after(() => cluster?.stop());

  it('lists, revokes, adds credits and sets the storage quota while a relay runs on the same database', async () => {
    const relay = await startTestRelay({ databaseUrl: url });
    try {
      const enrol = await relayCli(['devices', 'enrol', '--name', 'laptop', '--database-url', url]);
      const [deviceId] = enrol.stdout.trim().split(' ');
      const key = (
        await relayCli([
          'keys',
          'create',
          '--name',
          'script',
          '--scopes',
          'capabilities.read',
          '--pool',
          '*',
          '--database-url',
          url,
        ])
      ).stdout.trim();
      assert.equal((await request(`${relay.base}/capabilities`, { headers: bearer(key) })).status, 200);

      const devices = JSON.parse((await relayCli(['devices', 'list', '--json', '--database-url', url])).stdout);
      assert.deepEqual(
        devices.map((d: { id: string; ready: boolean }) => [d.id, d.ready]),
        [[deviceId, false]],
      );
      const drain = await relayCli(['devices', 'drain', deviceId, '--database-url', url]);
      assert.equal(drain.code, 0, drain.stderr);
      assert.match(drain.stderr, /Draining dev_/);
      const drained = JSON.parse((await relayCli(['devices', 'list', '--json', '--database-url', url])).stdout);
      assert.deepEqual([drained[0].draining, drained[0].service], [true, 'drained'], 'nothing runs on it');
      assert.match((await relayCli(['devices', 'list', '--database-url', url])).stdout, /offline \(drained\)/);
      assert.equal((await relayCli(['devices', 'undrain', deviceId, '--database-url', url])).code, 0);
      const back = JSON.parse((await relayCli(['devices', 'list', '--json', '--database-url', url])).stdout);
      assert.deepEqual([back[0].draining, back[0].service], [false, 'in service']);
      assert.equal((await relayCli(['devices', 'drain', 'dev_nosuchdevice', '--database-url', url])).code, 2);
      assert.equal(
        (await relayCli(['devices', 'label', deviceId, '--set', 'gpu,site:paris', '--database-url', url])).code,
        0,
      );
      const [labelled] = JSON.parse((await relayCli(['devices', 'list', '--json', '--database-url', url])).stdout);
      assert.deepEqual(labelled.labels, ['gpu', 'site:paris']);
      const badLabel = await relayCli(['devices', 'label', deviceId, '--set', 'Not A Label', '--database-url', url]);
      assert.equal(badLabel.code, 2, badLabel.stderr);
      assert.match(badLabel.stderr, /is not a label/);
      const [listed] = JSON.parse((await relayCli(['keys', 'list', '--json', '--database-url', url])).stdout);
      const revoked = await relayCli(['keys', 'revoke', listed.id, '--database-url', url]);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.equal((await request(`${relay.base}/capabilities`, { headers: bearer(key) })).status, 401);
      assert.match((await relayCli(['keys', 'list', '--database-url', url])).stdout, /script .* revoked/);

      const before = Number((await relayCli(['credits', 'show', '--database-url', url])).stdout);
      assert.equal(
        Number((await relayCli(['credits', 'add', '--amount', '250', '--database-url', url])).stdout),
        before + 250,
      );
      assert.match(
        (await relayCli(['storage', 'quota', '--bytes', '1048576', '--database-url', url])).stdout,
        /of 1048576 bytes/,
      );
      const pooled = await relayCli([
        'keys',
        'create',
        '--name',
        'gpus',
        '--scopes',
        'tts.create',
        '--pool',
        'label:gpu',
        '--database-url',
        url,
      ]);
      assert.equal(pooled.code, 0, pooled.stderr);
    } finally {
      await relay.dispose();
    }
  });

  it('answers mistakes with exit code 2 and a sentence', async () => {
    for (const args of [
      ['keys', 'create', '--name', 'x', '--scopes', 'tts.create,launch.missiles', '--pool', '*'],
      ['keys', 'create', '--name', 'x', '--scopes', 'tts.create', '--pool', 'dev_doesnotexist0000'],
      ['keys', 'create', '--name', 'x', '--scopes', 'tts.create'],
      ['keys', 'create', '--name', 'x', '--scopes', 'tts.create', '--pool', '*', '--expires', '2001-01-01T00:00:00Z'],
      ['keys', 'explode'],
    ]) {
      const result = await relayCli([...args, '--database-url', url]);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.ok(result.stderr.trim().length > 0);
    }
  });
});
