/**
 * The extension's own `deactivate()`, as VS Code calls it when the window closes: the last test of the suite,
 * since it stops the window's server. It takes the function from the extension's loaded module (the same
 * module instance VS Code activated, from Node's module cache), so it acts on the real server controller.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { JobStore } from '../../src/jobs/store';
import { silentLogger } from '../../src/util/log';
import { test } from './harness';
import { EXTENSION_ID, extensionApi, processing, setting } from './helpers';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The engine processes this extension host forked: its children running dist/engine-worker.js. */
function enginePids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        // The parent pid is the 4th field of /proc/<pid>/stat, after the command name in parentheses.
        const parent = Number(
          readFileSync(`/proc/${pid}/stat`, 'utf8')
            .replace(/^.*\) /s, '')
            .split(' ')[1],
        );
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('engine-worker.js');
      } catch {
        return false;
      }
    });
}

test("deactivate() stops the window's server, stores the running job as interrupted and ends the engine process", async () => {
  const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
  const studio = await extensionApi();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the extension's own CommonJS bundle, from the extension host's module cache
  const loaded = require(path.join(extension.extensionPath, 'dist', 'extension.js')) as { deactivate(): Promise<void> };
  const base = studio.baseUrl;
  assert.ok(base, "the window's Local API runs");
  assert.equal((await fetch(`${base}/health`)).status, 200);
  const dataDir = setting<string>('dataDirectory');
  assert.ok(dataDir, "the suite's settings name the data directory");

  const job = await studio.createTtsJob({
    text: 'A long text that is still being spoken when the window closes. '.repeat(1200),
  });
  await processing(studio, job.id);
  const engines = enginePids();
  assert.ok(engines.length > 0, 'an engine process runs the job');

  await loaded.deactivate();

  assert.deepEqual(engines.filter(alive), [], 'the engine processes have ended');
  await assert.rejects(fetch(`${base}/health`), 'the port is closed');
  const store = await JobStore.open(path.join(dataDir, 'jobs.json'), silentLogger);
  assert.equal(store.get(job.id)?.status, 'interrupted', 'the job store holds the running job as interrupted');
}, 60_000);
