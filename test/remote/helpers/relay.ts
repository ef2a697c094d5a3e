/**
 * Relays for the tests: in this process (startTestRelay, on PGlite or a PostgreSQL URL) or as a child
 * process of dist/relay.js (startRelayProcess), plus the admin steps tests need (keys, devices, credits).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApiKey, type NewApiKey } from '../../../src/relay/data/api-keys';
import { enrolDevice } from '../../../src/relay/data/devices';
import type { Database } from '../../../src/relay/db/database';
import { MIGRATIONS } from '../../../src/relay/db/migrations';
import { openDatabase } from '../../../src/relay/db/open-database';
import { startRelay, type Relay, type RelayOptions } from '../../../src/relay/relay-server';
import { silentLogger } from '../../../src/util/log';
import { PROJECT_ROOT, tempDir } from '../../helpers/server';

/** The build the child processes run: dist/, or SPEECH_TEST_DIST (a snapshot, so a rebuild mid-run cannot break it). */
export const TEST_DIST = process.env.SPEECH_TEST_DIST ?? path.join(PROJECT_ROOT, 'dist');
export const RELAY_CLI = path.join(TEST_DIST, 'relay.js');
export const DEVICE_CLI = path.join(TEST_DIST, 'cli.js');
export const ADMIN_PASSWORD = 'portal-test-password';
export const ALL_SCOPES = ['capabilities.read', 'voices.read', 'tts.create', 'stt.create', 'jobs.read', 'jobs.cancel'];

/**
 * A migrated, empty PGlite data folder, made once and copied for each relay: creating one from scratch
 * runs initdb inside WebAssembly (several seconds); copying takes milliseconds.
 */
async function pgliteTemplate(): Promise<string> {
  const manifest = path.join(PROJECT_ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json');
  const { version } = JSON.parse(await readFile(manifest, 'utf8')) as { version: string };
  // Named by the migrations' content, not their number: two branches each adding a migration 4 must not share one.
  const migrations = createHash('sha256').update(JSON.stringify(MIGRATIONS)).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), `speech-relay-pglite-template-${version}-m${MIGRATIONS.length}-${migrations}`);
  if (await stat(path.join(dir, 'db', 'PG_VERSION')).catch(() => undefined)) return dir;
  const building = `${dir}.${process.pid}.building`;
  await rm(building, { recursive: true, force: true });
  const db = await openDatabase({ dataDir: building, log: silentLogger });
  await db.close();
  await rename(building, dir).catch(async () => rm(building, { recursive: true, force: true })); // another file won the race
  return dir;
}

/** A fresh data folder for a PGlite relay, already holding a migrated database. */
export async function pgliteDataDir(): Promise<string> {
  const template = await pgliteTemplate();
  const dir = await tempDir('speech-relay-');
  await mkdir(dir, { recursive: true });
  await cp(path.join(template, 'db'), path.join(dir, 'db'), { recursive: true });
  return dir;
}

export interface TestRelay {
  relay: Relay;
  db: Database;
  dataDir: string;
  base: string;
  origin: string;
  /** Stops the relay; the data folder stays for a restart. */
  stop(): Promise<void>;
  /** Stops it and removes its data folder. */
  dispose(): Promise<void>;
}

export async function startTestRelay(options: Partial<RelayOptions> = {}): Promise<TestRelay> {
  const dataDir = options.dataDir ?? (options.databaseUrl ? await tempDir('speech-relay-') : await pgliteDataDir());
  const relay = await startRelay({
    host: '127.0.0.1',
    port: 0,
    log: silentLogger,
    adminPassword: ADMIN_PASSWORD,
    ...options,
    dataDir,
  });
  let stopped = false;
  const stop = async () => {
    if (!stopped) await relay.close();
    stopped = true;
  };
  return {
    relay,
    db: relay.db,
    dataDir,
    base: relay.url,
    origin: relay.origin,
    stop,
    dispose: async () => {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const bearer = (key: string): Record<string, string> => ({ Authorization: `Bearer ${key}` });

export async function makeKey(db: Database, accountId: number, input: Partial<NewApiKey> = {}): Promise<string> {
  const { plaintext } = await createApiKey(db, accountId, {
    name: 'test',
    scopes: ALL_SCOPES,
    pool: ['*'],
    rpm: 10_000,
    maxConcurrentJobs: 10,
    ...input,
  });
  return plaintext;
}

export async function makeDevice(
  db: Database,
  accountId: number,
  name = 'device',
): Promise<{ id: string; token: string }> {
  const { device, token } = await enrolDevice(db, accountId, name);
  return { id: device.id, token };
}

export interface RelayProcess {
  child: ChildProcess;
  base: string;
  origin: string;
  output(): string;
  exited: Promise<number | string>;
  /** SIGTERM (or the given signal), then waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** `node dist/relay.js serve …` in a child process; resolves once it listens. */
export function startRelayProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RelayProcess> {
  const child = spawn(process.execPath, [RELAY_CLI, 'serve', '--host', '127.0.0.1', ...args], {
    env: { ...process.env, RELAY_ADMIN_PASSWORD: ADMIN_PASSWORD, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The relay did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /relay listening on (http:\/\/\S+)\/v1/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({
          child,
          origin: match[1],
          base: `${match[1]}/v1`,
          output: () => output,
          exited,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            await exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`The relay exited (${code}) before listening:\n${output}`));
    });
  });
}
