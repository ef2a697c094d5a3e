/**
 * Devices for the relay tests: real headless servers (`node dist/cli.js serve --relay … --device-token …`)
 * in child processes, with the synthetic whisper model when they should transcribe.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { tempDir } from '../../helpers/server';
import { testModel } from '../../helpers/test-models';
import { DEVICE_CLI } from './relay';

export interface TestDevice {
  child: ChildProcess;
  dataDir: string;
  /** The device's own Local API. */
  localBase: string;
  output(): string;
  /** Resolves once the device has (re)connected `times` times in all. */
  connected(times?: number): Promise<void>;
  /** The device's local job records (from its store's journal). */
  localJobs(): Promise<Array<{ id: string; origin: string; status: string }>>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  dispose(): Promise<void>;
}

export interface DeviceOptions {
  relayOrigin: string;
  token: string;
  /** Install the synthetic whisper model (STT). Default true. */
  stt?: boolean;
  /** Start on this data directory (a restart of a device stopped with `kill`); default a new one. */
  dataDir?: string;
  /** Run the speed calibration on joining, with this limit in seconds (default: none; it would add jobs to every test's device). */
  calibrateSeconds?: number;
  /** More environment for the device, e.g. SPEECH_STUDIO_ENGINE_SLOWDOWN. */
  env?: Record<string, string>;
}

const CONNECTED = /Connected to the relay/g;

export async function startDevice(options: DeviceOptions): Promise<TestDevice> {
  const dataDir = options.dataDir ?? (await tempDir('speech-device-'));
  if (options.stt !== false && options.dataDir === undefined) {
    await mkdir(path.join(dataDir, 'models', 'whisper'), { recursive: true });
    await symlink(
      testModel('whisper/ggml-synthetic-random.bin'),
      path.join(dataDir, 'models', 'whisper', 'ggml-synthetic-random.bin'),
    );
  }
  const child = spawn(
    process.execPath,
    [
      DEVICE_CLI,
      'serve',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--relay',
      options.relayOrigin,
      '--device-token',
      options.token,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        SPEECH_STUDIO_CALIBRATION: options.calibrateSeconds ? String(options.calibrateSeconds) : 'off',
        ...options.env,
      },
    },
  );
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of [...listeners]) listener();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const until = (what: string, test: () => boolean, timeoutMs = 30_000): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = () => {
        if (!test()) return;
        listeners.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`Timed out waiting for the device to ${what}:\n${output}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });

  await until('start', () => /Local API listening on (http:\/\/\S+\/v1)/.test(output));
  const localBase = /Local API listening on (http:\/\/\S+\/v1)/.exec(output)![1];
  const kill = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    child,
    dataDir,
    localBase,
    output: () => output,
    connected: (times = 1) => until(`connect (${times})`, () => (output.match(CONNECTED)?.length ?? 0) >= times),
    async localJobs() {
      const lines = (await readFile(path.join(dataDir, 'jobs.json.journal'), 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean);
      const snapshot = JSON.parse(await readFile(path.join(dataDir, 'jobs.json'), 'utf8').catch(() => '{"jobs":[]}'));
      const byId = new Map<string, { id: string; origin: string; status: string }>();
      for (const job of snapshot.jobs ?? []) byId.set(job.id, job);
      for (const line of lines) {
        const entry = JSON.parse(line) as { put?: { id: string; origin: string; status: string }; remove?: string };
        if (entry.put) byId.set(entry.put.id, entry.put);
        if (entry.remove) byId.delete(entry.remove);
      }
      return [...byId.values()];
    },
    kill,
    dispose: async () => {
      await kill();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
