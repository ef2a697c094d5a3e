import assert from 'node:assert/strict';
import { test } from './harness';
import { api, extensionApi, freePort, processing, setting, succeeded, ui, updateSetting, waitFor } from './helpers';

test('changing the port restarts the server on the new port and keeps the jobs', async () => {
  const studio = await extensionApi();
  const before = studio.baseUrl!;
  const job = await studio.createTtsJob({ text: 'A job from before the restart.' });
  await succeeded(studio, job.id);
  const port = await freePort();
  await updateSetting('localApi.port', port);
  const after = await waitFor('the server on the new port', () =>
    studio.baseUrl === `http://127.0.0.1:${port}/v1` ? studio.baseUrl : undefined,
  );
  assert.equal((await api(after, '/health')).status, 200);
  await assert.rejects(fetch(`${before}/health`), 'the old port is closed');
  assert.equal(studio.getJob(job.id)?.status, 'succeeded', 'the job survived the restart');
});

test('switching the Local API off answers 503 and keeps the editor commands working', async () => {
  const studio = await extensionApi();
  await updateSetting('localApi.enabled', false);
  await waitFor('the API to be off', () => studio.baseUrl === undefined);
  const job = await studio.createTtsJob({ text: 'Still works with the API off.' });
  await succeeded(studio, job.id);
  await updateSetting('localApi.enabled', true);
  const base = await waitFor('the API to be back', () => studio.baseUrl);
  assert.equal((await api(base, '/health')).status, 200);
});

test('listening on all interfaces with auth off warns once, and its button turns auth on', async () => {
  const studio = await extensionApi();
  await updateSetting('localApi.host', '0.0.0.0');
  const toast = '.notifications-toasts .notification-list-item:has-text("listens on all interfaces")';
  await ui({ action: 'waitFor', selector: toast });
  await ui({ action: 'click', selector: `${toast} .monaco-button:has-text("Turn On Authentication")` });
  await waitFor('auth to be on', () => setting<boolean>('localApi.auth'));
  const base = await waitFor('the server on all interfaces', () =>
    studio.baseUrl?.startsWith('http://0.0.0.0:') ? studio.baseUrl : undefined,
  );
  const local = base.replace('0.0.0.0', '127.0.0.1');
  await waitFor('401 without a key', async () => (await api(local, '/voices')).status === 401);
  await updateSetting('localApi.host', undefined);
  await updateSetting('localApi.auth', undefined);
  await waitFor('the server back on loopback', () => studio.baseUrl?.startsWith('http://127.0.0.1:'));
  await waitFor('auth off again', async () => (await api(studio.baseUrl!, '/voices')).status === 200);
});

test('a port change waits for the running job instead of interrupting it, then restarts', async () => {
  const studio = await extensionApi();
  const before = studio.baseUrl!;
  const job = await studio.createTtsJob({
    text: 'This long narration is running while the port changes. '.repeat(1200),
  });
  await processing(studio, job.id);
  const port = await freePort();
  await updateSetting('localApi.port', port);
  await waitFor('the restart to wait for the job', () => studio.baseUrl === undefined);
  assert.equal(studio.getJob(job.id)?.status, 'processing', 'the job still runs');
  assert.equal((await api(before, '/health')).status, 200, 'the old server still answers');
  await studio.cancelJob(job.id);
  await waitFor('the server on the new port', () => studio.baseUrl === `http://127.0.0.1:${port}/v1`);
  assert.equal(studio.getJob(job.id)?.status, 'cancelled', 'cancelled, not interrupted');
}, 60_000);
