import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { ServerController } from '../../src/editor/server-controller';
import { silentLogger } from '../../src/util/log';
import { test } from './harness';
import { EXTENSION_ID, freePort, waitFor } from './helpers';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// `deactivate` disposes the extension's ServerController; this drives a second controller the same way,
// on its own port and data directory, so the window's own server keeps running for the other tests.
test('deactivate stops the server, marks the running job interrupted and ends the engine process', async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'speech-studio-deactivate-'));
  const port = await freePort();
  const settings = {
    localApi: { enabled: true, host: '127.0.0.1', port, auth: false, queueCapacity: 32 },
    dataDirectory: dataDir, sttDefaultModel: '', ttsDefaultVoice: '', ttsSpeakerVoices: {}, ffmpegPath: '', modelMirror: '',
    relay: { url: '', enabled: false },
  };
  const extensionPath = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
  const controller = new ServerController(settings, {
    defaultDataDir: dataDir,
    engineWorkerPath: path.join(extensionPath, 'dist', 'engine-worker.js'),
    apiKeys: { current: () => undefined },
    log: silentLogger,
  });
  try {
    await controller.start();
    const server = await controller.ready();
    assert.equal(server.url, `http://127.0.0.1:${port}/v1`);
    const voices = (await (await fetch(`${server.url}/voices?languageCode=en&limit=1`)).json()) as { items: Array<{ id: string }> };
    const created = (await (await fetch(`${server.url}/tts/jobs`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ voiceId: voices.items[0].id, text: 'A long text that is still being spoken when the window closes. '.repeat(1200) }),
    })).json()) as { id: string };
    await waitFor('the job to run', () => server.jobs.get(created.id)?.status === 'processing', 30_000);
    const pids = server.engine.pids;
    assert.ok(pids.length > 0, 'an engine process runs the job');
    await controller.dispose();
    assert.equal(server.jobs.get(created.id)?.status, 'interrupted');
    assert.deepEqual(pids.filter(alive), [], 'the engine process has ended');
    await assert.rejects(fetch(`${server.url}/health`), 'the port is closed');
  } finally {
    await controller.dispose();
    await rm(dataDir, { recursive: true, force: true });
  }
}, 60_000);
