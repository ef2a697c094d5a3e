import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { test } from './harness';
import { api, extensionApi, updateSetting, waitFor } from './helpers';

test('with bearer auth on, the Local API needs the key kept in SecretStorage', async () => {
  const studio = await extensionApi();
  await updateSetting('localApi.auth', true);
  const base = studio.baseUrl!;
  await waitFor('401 without a key', async () => (await api(base, '/voices')).status === 401);
  const key = await studio.getApiKey();
  assert.match(key, /^ssk_local_[A-Za-z0-9]{32}$/);
  assert.equal((await api(base, '/voices', { key })).status, 200);
  assert.equal((await api(base, '/voices', { key: `${key}x` })).status, 401);
});

test('Regenerate API Key makes the old key stop working at once', async () => {
  const studio = await extensionApi();
  const base = studio.baseUrl!;
  const old = await studio.getApiKey();
  assert.equal(await vscode.commands.executeCommand('speechStudio.regenerateApiKey', { confirm: false }), true);
  const fresh = await studio.getApiKey();
  assert.notEqual(fresh, old);
  assert.equal((await api(base, '/voices', { key: old })).status, 401);
  assert.equal((await api(base, '/voices', { key: fresh })).status, 200);
  await vscode.commands.executeCommand('speechStudio.copyApiKey');
  assert.equal(await vscode.env.clipboard.readText(), fresh);
  await updateSetting('localApi.auth', false);
  await waitFor('auth to be off again', async () => (await api(base, '/voices')).status === 200);
});
