import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { test } from './harness';
import { api, extensionApi, succeeded, ui } from './helpers';

test("the Jobs view copies a job id and a curl that downloads a Local API job's output, and links the OpenAPI document", async () => {
  const studio = await extensionApi();
  const base = studio.baseUrl!;
  const voices = await api(base, '/voices?limit=1');
  const created = await api(base, '/tts/jobs', {
    method: 'POST',
    json: { voiceId: voices.body.items[0].id, text: 'Fetched with curl from the Jobs view.' },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const job = await succeeded(studio, created.body.id);

  assert.equal(await vscode.commands.executeCommand<string>('speechStudio.job.copyId', job.id), job.id);
  assert.equal(await vscode.env.clipboard.readText(), job.id);

  const line = await vscode.commands.executeCommand<string>('speechStudio.job.copyCurl', job.id);
  assert.match(line, new RegExp(`^curl -s '${base}/jobs/${job.id}/output' -H 'Authorization: Bearer ssk_local_`));
  assert.equal(await vscode.env.clipboard.readText(), line);
  const shellDir = await mkdtemp(path.join(os.tmpdir(), 'job-curl-'));
  try {
    await promisify(execFile)('sh', ['-c', line], { cwd: shellDir });
    const [file] = await readdir(shellDir);
    assert.ok(file, 'curl wrote the output');
    assert.equal((await readFile(path.join(shellDir, file))).subarray(0, 4).toString('latin1'), 'RIFF');
  } finally {
    await rm(shellDir, { recursive: true, force: true });
  }

  await vscode.commands.executeCommand('speechStudio.showJobs');
  await ui({ action: 'waitFor', selector: '.part.sidebar .action-label[aria-label*="OpenAPI Document"]' });
});
