import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile, copyFile, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { InstallResult } from '../../src/models/model-manager';
import { test } from './harness';
import { clearNotifications, testModel, updateSetting, waitForNotification } from './helpers';

test('Open Data Folder names the folder that holds the models, the jobs and the key', async () => {
  const folder = await vscode.commands.executeCommand<string>('speechStudio.openDataFolder');
  assert.ok(folder && path.isAbsolute(folder), String(folder));
  assert.ok((await stat(folder)).isDirectory());
  await waitForNotification(`:has-text("${path.basename(folder)}")`);
  await clearNotifications();
});

test('Import Model installs a file downloaded elsewhere once it matches the catalog, and refuses one that does not', async () => {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'import-model-'));
  try {
    const dataDir = await vscode.commands.executeCommand<string>('speechStudio.openDataFolder');
    await clearNotifications();
    const downloaded = path.join(scratch, 'ggml-silero-v6.2.0.bin');
    await copyFile(testModel('vad/ggml-silero-v6.2.0.bin'), downloaded);
    const imported = await vscode.commands.executeCommand<InstallResult | undefined>(
      'speechStudio.importModel',
      vscode.Uri.file(downloaded),
    );
    assert.equal(imported?.id, 'vad-silero-v6.2.0');
    const installed = path.join(dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin');
    assert.ok(existsSync(installed));
    // A copy, not a hard link: deleting the user's download leaves the installed model whole.
    assert.equal((await stat(installed)).nlink, 1);
    await rm(downloaded);
    assert.equal((await stat(installed)).size, 885098);

    // The catalog's file name with other bytes: refused by its checksum, like a corrupted download.
    const corrupted = path.join(scratch, 'broken', 'ggml-silero-v6.2.0.bin');
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(path.dirname(corrupted)));
    await writeFile(corrupted, Buffer.alloc(885098, 7));
    await clearNotifications();
    const refused = await vscode.commands.executeCommand<InstallResult | undefined>(
      'speechStudio.importModel',
      vscode.Uri.file(corrupted),
    );
    assert.equal(refused, undefined);
    await waitForNotification(
      ':has-text("Importing the model failed")',
      ':has-text("it is a different or damaged file")',
    );
    await clearNotifications();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
});

test('an unreachable download names the mirror setting and offers Import Model', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  try {
    await updateSetting('models.mirror', `http://127.0.0.1:${port}`);
    await clearNotifications();
    const result = await vscode.commands.executeCommand('speechStudio.installModel', 'whisper-tiny-en-q5_1');
    assert.equal(result, undefined);
    await waitForNotification(
      ':has-text("speechStudio.models.mirror")',
      ':has-text("speechStudio.models.mirror") .monaco-button:has-text("Import Model…")',
    );
    await clearNotifications();
  } finally {
    await updateSetting('models.mirror', undefined);
  }
});
