import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from './harness';
import { api, extensionApi, setting, succeeded, waitFor } from './helpers';

test('activation starts the Local API on the test port from the settings', async () => {
  const studio = await extensionApi();
  const port = setting<number>('localApi.port');
  const base = await waitFor('the server to listen', () => studio.baseUrl);
  assert.equal(base, `http://127.0.0.1:${port}/v1`);
  const health = await api(base, '/health');
  assert.equal(health.status, 200);
  assert.equal(health.body.status, 'ok');
});

test('the HTTP API answers from inside VS Code: voices, a TTS job and its WAV', async () => {
  const studio = await extensionApi();
  const base = studio.baseUrl!;
  const voices = await api(base, '/voices?languageCode=en-US&limit=3');
  assert.equal(voices.status, 200);
  assert.ok(voices.body.items.length > 0, 'some en-US voices');
  const created = await api(base, '/tts/jobs', {
    method: 'POST',
    json: { voiceId: voices.body.items[0].id, text: 'Hello from inside VS Code.' },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const done = await waitFor('the API job to succeed', async () => {
    const job = (await api(base, `/jobs/${created.body.id}`)).body;
    if (job.status === 'failed') throw new Error(job.error);
    return job.status === 'succeeded' ? job : undefined;
  });
  assert.equal(done.progress, 100);
  const output = await fetch(`${base}/jobs/${created.body.id}/output`);
  assert.equal(output.status, 200);
  assert.equal(
    Buffer.from(await output.arrayBuffer())
      .subarray(0, 4)
      .toString('latin1'),
    'RIFF',
  );
});

test('jobs from the extension API are editor jobs: they run, and the HTTP API answers 404 for them', async () => {
  const studio = await extensionApi();
  const job = await studio.createTtsJob({ text: 'Only the editor sees this job.' });
  assert.equal((await api(studio.baseUrl!, `/jobs/${job.id}`)).status, 404);
  const done = await succeeded(studio, job.id);
  assert.ok(done.outputPath, 'a succeeded job has an output path');
  assert.equal((await readFile(done.outputPath)).subarray(0, 4).toString('latin1'), 'RIFF');
});
