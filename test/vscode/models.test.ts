import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import * as vscode from 'vscode';
import { test } from './harness';
import { clearNotifications, screenshot, setting, ui, updateSetting, waitFor } from './helpers';

/** A model mirror on loopback that starts sending the file and then stalls, like a very slow link. */
async function stallingMirror(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': '32166155' });
    response.write(Buffer.alloc(256 * 1024, 1));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

test('Install Model downloads through the mirror setting and Cancel in its notification stops it', async () => {
  const mirror = await stallingMirror();
  try {
    await updateSetting('models.mirror', mirror.url);
    await clearNotifications();
    const installing = Promise.resolve(
      vscode.commands.executeCommand('speechStudio.installModel', 'whisper-tiny-en-q5_1'),
    );
    const toast = '.notifications-toasts .notification-list-item:has-text("Installing Whisper tiny.en")';
    await ui({ action: 'waitFor', selector: `${toast}:has-text("Downloading")` });
    assert.deepEqual(mirror.requests, ['/huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-tiny.en-q5_1.bin']);
    await screenshot('install-model-progress', { keepNotifications: true });
    await ui({ action: 'click', selector: `${toast} .monaco-button:has-text("Cancel")` });
    assert.equal(await installing, undefined, 'a cancelled install returns nothing');
    const target = path.join(setting<string>('dataDirectory'), 'models', 'whisper', 'ggml-tiny.en-q5_1.bin');
    assert.equal(existsSync(target), false, 'nothing was installed');
    await ui({ action: 'waitFor', selector: toast, state: 'detached' });
  } finally {
    await updateSetting('models.mirror', undefined);
    await mirror.close();
  }
});

test('Choose Voice searches the voices by language and sets the default voice', async () => {
  const previous = setting<string>('tts.defaultVoice');
  const picking = Promise.resolve(
    vscode.commands.executeCommand<{ id: string; name: string }>('speechStudio.chooseVoice'),
  );
  const input = '.quick-input-widget input';
  await ui({ action: 'waitFor', selector: input });
  await ui({ action: 'type', selector: input, text: 'french' });
  await ui({ action: 'waitFor', selector: '.quick-input-widget .monaco-list-row:has-text("French (France)")' });
  await screenshot('choose-voice');
  await ui({ action: 'click', selector: '.quick-input-widget .monaco-list-row:has-text("French (France)")' });
  const chosen = await picking;
  assert.equal(chosen?.name, 'French (France)');
  await waitFor('the setting to change', () => setting<string>('tts.defaultVoice') === chosen.id);
  await updateSetting('tts.defaultVoice', previous || undefined);
});
