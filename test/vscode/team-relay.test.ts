/**
 * Joining a team relay from VS Code: a real relay (dist/relay.js on PGlite, in a child process) with an
 * enrolled device and an API key; a wrong token is refused; the right one brings the link online, a job sent
 * to the relay's Remote API runs on this window's engine and shows in the Jobs view as remote with the key's
 * name; a relay that goes away shows "reconnecting" until the link is back; leaving ends the link and the
 * relay sees the device offline at once.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { teardown, test } from './harness';
import { setting, ui, updateSetting, waitFor } from './helpers';

/** The project the suite was built from: out/test/vscode/index.js lives three folders down. */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const RELAY_CLI = path.join(ROOT, 'dist', 'relay.js');
const ENGLISH_VOICE = '59ecd22d-96db-56b8-a0f4-62d14ba28a8b';
const KEY_NAME = 'team-ci';
const STATUS = '[id$="speechStudio.relayStatus"]';

interface TestRelay {
  origin: string;
  key: string;
  deviceToken: string;
  child: ChildProcess;
  dataDir: string;
}
let relay: TestRelay | undefined;

function relayAdmin(dataDir: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [RELAY_CLI, ...args, '--data-dir', dataDir],
      { timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`relay.js ${args.join(' ')}: ${error.message}\n${stderr}`)) : resolve(stdout.trim()),
    );
  });
}

/** Enrols a device and makes a key while the embedded database is free, then serves on a free port. */
async function startRelay(): Promise<TestRelay> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'speech-studio-relay-'));
  const [, deviceToken] = (await relayAdmin(dataDir, 'devices', 'enrol', '--name', 'this VS Code')).split(' ');
  const key = await relayAdmin(
    dataDir,
    'keys',
    'create',
    '--name',
    KEY_NAME,
    '--scopes',
    'capabilities.read,tts.create,jobs.read',
    '--pool',
    '*',
  );
  return { ...(await serve(dataDir, 0)), key, deviceToken, dataDir };
}

async function stopRelay(): Promise<void> {
  const { child } = relay!;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await exited;
}

/** `relay.js serve` on the data folder; resolves once it listens. */
async function serve(dataDir: string, port: number): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [RELAY_CLI, 'serve', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir],
    {
      env: { ...process.env, RELAY_ADMIN_PASSWORD: 'vscode-test-password' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the relay did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /relay listening on (http:\/\/\S+)\/v1/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the relay exited (${code}) before listening:\n${output}`));
    });
  });
  return { origin, child };
}

async function remote(
  route: string,
  init: { method?: string; json?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${relay!.origin}/v1${route}`, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${relay!.key}`,
      ...(init.json === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  return { status: response.status, body: await response.json() };
}

const readyDevices = async (): Promise<number> => (await remote('/capabilities')).body.devices.ready as number;
const statusBar = (text: string, timeoutMs = 30_000): Promise<unknown> =>
  ui({ action: 'waitFor', selector: `${STATUS}:has-text("${text}")`, timeout: timeoutMs }, timeoutMs + 5_000);

teardown(async () => {
  await vscode.commands.executeCommand('speechStudio.leaveTeamRelay');
  await updateSetting('relay.url', undefined);
  if (relay) {
    await stopRelay();
    await rm(relay.dataDir, { recursive: true, force: true });
  }
});

test('a device token the relay does not know shows "refused" with the relay\'s sentence', async () => {
  relay = await startRelay();
  const joined = await vscode.commands.executeCommand('speechStudio.joinTeamRelay', {
    url: relay.origin,
    token: `ssd_${'x'.repeat(40)}`,
  });
  assert.equal(joined, true);
  assert.equal(setting<boolean>('relay.enabled'), true);
  assert.equal(setting<string>('relay.url'), relay.origin);
  await statusBar('Relay refused');
  const label = await ui({
    action: 'property',
    selector: `${STATUS}[aria-label], ${STATUS} [aria-label]`,
    name: 'ariaLabel',
  });
  assert.match(String(label.value), /The device token is wrong, or the device was removed\./);
}, 180_000); // three starts of the embedded database (initdb in WebAssembly) on a busy 2-core machine

test("with the right token the link is online, a relay job runs here and is marked remote with the key's name", async () => {
  assert.ok(relay, 'the relay started in the previous test');
  assert.equal(await vscode.commands.executeCommand('speechStudio.joinTeamRelay', { token: relay.deviceToken }), true);
  await statusBar('Relay online');
  await waitFor('the relay to see the device', async () => (await readyDevices()) === 1);

  const created = await remote('/tts/jobs', {
    method: 'POST',
    json: { voiceId: ENGLISH_VOICE, text: 'Hello from the team relay.' },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const job = await waitFor(
    'the relay job to finish',
    async () => {
      const { body } = await remote(`/jobs/${created.body.id}`);
      return ['queued', 'loading_model', 'processing'].includes(body.status) ? undefined : body;
    },
    60_000,
  );
  assert.equal(job.status, 'succeeded', job.error);

  await vscode.commands.executeCommand('speechStudio.showJobs');
  await ui({
    action: 'waitFor',
    selector: `.pane-body .monaco-list-row:has-text("Hello from the team relay"):has-text("remote (${KEY_NAME})")`,
  });
}, 120_000);

test('while the relay is away the status is "reconnecting"; the link comes back by itself', async () => {
  assert.ok(relay, 'the relay started in the first test');
  await stopRelay();
  await statusBar('Relay reconnecting');
  // Same port, same data: the device reconnects on its own (backoff at most 30 s).
  relay = { ...relay, ...(await serve(relay.dataDir, Number(new URL(relay.origin).port))) };
  await statusBar('Relay online', 90_000);
  await waitFor('the relay to see the device again', async () => (await readyDevices()) === 1);
}, 180_000);

test('Leave Team Relay ends the link at once: the relay sees the device offline, the token stays', async () => {
  assert.ok(relay, 'the relay started in the first test');
  await vscode.commands.executeCommand('speechStudio.leaveTeamRelay');
  assert.equal(setting<boolean>('relay.enabled'), false);
  assert.equal(setting<string>('relay.url'), relay.origin, 'leaving keeps the address');
  // The relay's silence limit is 30 s: only the closed link itself takes the device offline this soon.
  await waitFor('the relay to see the device offline', async () => (await readyDevices()) === 0, 5_000);
  await ui({ action: 'waitFor', selector: STATUS, state: 'detached' });
  // Joining again needs no token: the stored one is used.
  assert.equal(await vscode.commands.executeCommand('speechStudio.joinTeamRelay'), true);
  await statusBar('Relay online');
  await vscode.commands.executeCommand('speechStudio.leaveTeamRelay');
  await waitFor('the relay to see the device offline again', async () => (await readyDevices()) === 0, 5_000);
}, 120_000);
