import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { access, mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ChooseVoiceResult } from '../../src/editor/commands/choose-voice';
import type { SpeechStudioJob } from '../../src/extension';
import type { ReadAloudStatus } from '../../src/editor/read-aloud/read-aloud';
import type { TtsResult } from '../../src/contract/types';
import { builtinCatalog } from '../../src/models/catalog';
import { createModelManager } from '../../src/models/model-manager';
import { sampleSentence } from '../../src/voices/sample-sentences';
import { voiceIdFor } from '../../src/voices/voice-id';
import { serve, startFixtureServer, type FixtureServer } from '../helpers/model-server';
import { teardown, test } from './harness';
import {
  clearNotifications,
  extensionApi,
  playerShown,
  screenshot,
  setting,
  testModel,
  ui,
  updateSetting,
  waitFor,
  workspaceFile,
} from './helpers';

const GERMAN = voiceIdFor('espeak-ng', 'gmw/de');
const LESSAC = voiceIdFor('sherpa-onnx', 'piper-en-us-lessac-medium');
const LJSPEECH = voiceIdFor('sherpa-onnx', 'piper-en-us-ljspeech-high');
const CORI = voiceIdFor('sherpa-onnx', 'piper-en-gb-cori-high');
const modelsDir = (): string => path.join(setting<string>('dataDirectory'), 'models');
const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * A model mirror on loopback that serves the synthetic Piper model (random weights) as the files of the
 * given catalog voices, at `<mirror>/<host>/<path>` of each upstream URL.
 */
async function piperMirror(...ids: string[]): Promise<FixtureServer> {
  const files: Record<string, Buffer> = {
    model: readFileSync(testModel('sherpa-synthetic/vits-piper/model.onnx')),
    tokens: readFileSync(testModel('sherpa-synthetic/vits-piper/tokens.txt')),
    config: Buffer.from('{}'),
  };
  const server = await startFixtureServer();
  for (const id of ids) {
    for (const file of builtinCatalog().models.find((entry) => entry.id === id)!.files) {
      const url = new URL(file.url);
      server.route(`/${url.host}${url.pathname}`, serve(files[file.role ?? 'config']));
    }
  }
  await updateSetting('models.mirror', server.base);
  return server;
}

/** Removes a catalog voice the test installed, through the model manager (files and record). */
async function uninstall(id: string): Promise<void> {
  const models = await createModelManager({ dataDir: setting<string>('dataDirectory'), env: {} });
  if ((await models.list()).models.some((listing) => listing.entry.id === id && listing.status !== 'not-installed'))
    await models.remove(id);
}

const pinnedVoice = setting<string>('tts.defaultVoice');
teardown(async () => {
  await updateSetting('tts.defaultVoice', pinnedVoice || undefined);
  await updateSetting('models.mirror', undefined);
});

test('Choose Voice previews a voice with a sample sentence in its language, without choosing it', async () => {
  const result = await vscode.commands.executeCommand<ChooseVoiceResult>('speechStudio.chooseVoice', {
    voiceId: GERMAN,
    action: 'preview',
    play: false,
  });
  assert.equal(result?.preview?.status, 'succeeded', result?.preview?.error ?? 'no preview');
  const spoken = result.preview.result as TtsResult;
  assert.equal(spoken.voice.name, 'German');
  assert.equal(spoken.characters, [...sampleSentence('de')].length, 'the German sample sentence');
  assert.equal(setting<string>('tts.defaultVoice'), pinnedVoice, 'a preview does not change the default voice');

  // In the pick: the Preview button of a row plays the sample and the pick stays open.
  const picking = Promise.resolve(
    vscode.commands.executeCommand<{ id: string } | undefined>('speechStudio.chooseVoice'),
  );
  const input = '.quick-input-widget input';
  await ui({ action: 'waitFor', selector: input });
  await ui({ action: 'type', selector: input, text: 'piper french' });
  const row = '.quick-input-widget .monaco-list-row:has-text("Piper French, SIWIS")';
  await ui({ action: 'waitFor', selector: `${row}:has-text("download, ")` });
  try {
    await ui({ action: 'press', key: 'Control+a' });
    await ui({ action: 'type', selector: input, text: 'german' });
    // The installed voice first; its buttons show on the active row.
    const german = '.quick-input-widget .monaco-list-row.focused:has-text("German")';
    await ui({ action: 'waitFor', selector: german });
    const labels = (await ui({ action: 'texts', selector: `${german} .label-name` })).texts as string[];
    assert.equal(labels[0], 'German', 'the label of the active row (its detail follows)');
    const studio = await extensionApi();
    let previewed: SpeechStudioJob | undefined;
    const watching = studio.onDidChangeJob((job) => {
      if (job.status === 'succeeded' && (job.result as TtsResult | undefined)?.voice.name === 'German') previewed = job;
    });
    await ui({ action: 'click', selector: `${german} .action-label.codicon-play` });
    const job = await waitFor('the preview job to succeed', () => previewed, 30_000).finally(() => watching.dispose());
    assert.equal((job.result as TtsResult).characters, [...sampleSentence('de')].length);
    await playerShown();
    await ui({ action: 'waitFor', selector: german }, 5_000);
    await ui({
      action: 'waitFor',
      selector: '.notifications-toasts .notification-list-item:has-text("Previewing German")',
      state: 'detached',
    });
    await screenshot('choose-voice-preview');
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  }
  assert.equal(await picking, undefined, 'dismissed: nothing chosen');
  assert.equal(setting<string>('tts.defaultVoice'), pinnedVoice);
}, 120_000);

test('Choose Voice lists the current voice first and marked, then favourites and installed voices, a tier and licence on every row', async () => {
  await updateSetting('tts.defaultVoice', GERMAN);
  try {
    await pickerOrder();
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await updateSetting('tts.defaultVoice', pinnedVoice || undefined);
  }
}, 120_000);

async function pickerOrder(): Promise<void> {
  const rows = '.quick-input-widget .monaco-list-row';
  // Wrapped: an async function returning the pick's promise would wait for the pick to close.
  const open = async (): Promise<{ picking: Promise<unknown> }> => {
    const picking = Promise.resolve(vscode.commands.executeCommand('speechStudio.chooseVoice'));
    await ui({ action: 'waitFor', selector: `${rows}:has-text("German")` });
    return { picking };
  };
  const rowTexts = async (): Promise<string[]> => (await ui({ action: 'texts', selector: rows })).texts as string[];
  let { picking } = await open();
  try {
    const first = await rowTexts();
    // A row's text: label, description, detail, then its separator's label when it starts a section.
    assert.match(first[0], /^\s*German\s*Built-in · de · German · current.*installed.*Current voice$/, first[0]);
    assert.equal(
      (await ui({ action: 'count', selector: `${rows}:first-child .codicon-check` })).count,
      1,
      'its check mark',
    );
    for (const text of first) assert.match(text, /Natural ·|Built-in ·/, `a tier on every row: ${text}`);
    for (const text of first) assert.doesNotMatch(text, /Not installed/);
    assert.ok(
      first.some((text) => /download, \d+ MB/.test(text)) || first.every((text) => /installed/.test(text)),
      first.join('\n'),
    );
    assert.match(first[1], /Installed$/, 'the installed voices follow');
    await screenshot('choose-voice-picker', { selector: '.quick-input-widget' });
    // Favourite a voice from the list: it moves up under Favourites, kept when the pick is opened again.
    await ui({ action: 'type', selector: '.quick-input-widget input', text: 'ljspeech' });
    const lj = `${rows}.focused:has-text("LJSpeech")`;
    await ui({ action: 'waitFor', selector: lj });
    const lines = (await ui({ action: 'texts', selector: lj })).texts as string[];
    assert.match(lines[0], /Natural · en-US.*Public domain/, 'the public-domain natural voice, with its licence');
    assert.equal(
      (await ui({ action: 'count', selector: `${lj} .action-label.codicon-law` })).count,
      1,
      'a licence button',
    );
    // The pointer leaves the row's Preview button (the previous test's click left its hover there).
    await ui({ action: 'click', selector: '.quick-input-widget input' });
    await ui({ action: 'click', selector: `${lj} .action-label.codicon-star-empty` });
    await ui({ action: 'waitFor', selector: `${lj} .action-label.codicon-star-full` });
    // A Kokoro speaker both Kokoro models offer is one row, not two.
    await ui({ action: 'press', key: 'Control+a' });
    await ui({ action: 'type', selector: '.quick-input-widget input', text: 'kokoro bella' });
    await ui({ action: 'waitFor', selector: `${rows}:has-text("Kokoro Bella (English, America)")` });
    assert.equal(
      (await ui({ action: 'count', selector: `${rows}:has-text("Kokoro Bella (English, America)")` })).count,
      1,
      'Kokoro Bella once',
    );
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  }
  await picking;
  ({ picking } = await open());
  try {
    const again = await rowTexts();
    assert.match(again[1], /LJSpeech.*Favourites$/i, again.slice(0, 3).join('\n'));
    await ui({ action: 'type', selector: '.quick-input-widget input', text: 'ljspeech' });
    await ui({ action: 'waitFor', selector: `${rows}.focused:has-text("LJSpeech")` });
    await ui({ action: 'click', selector: `${rows}.focused:has-text("LJSpeech") .action-label.codicon-star-full` });
    await ui({ action: 'waitFor', selector: `${rows}.focused:has-text("LJSpeech") .action-label.codicon-star-empty` });
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  }
  await picking;
}

test('Choose Voice installs a catalog voice in place through the model mirror, makes it the default and previews it', async () => {
  const mirror = await piperMirror('piper-en-us-lessac-medium');
  try {
    await clearNotifications();
    const result = await vscode.commands.executeCommand<ChooseVoiceResult>('speechStudio.chooseVoice', {
      voiceId: LESSAC,
      play: false,
    });
    assert.ok(result, 'the voice was chosen');
    assert.equal(result.installed, true);
    assert.equal(result.voice.availability, 'ready');
    assert.equal(result.preview?.status, 'succeeded', result.preview?.error ?? 'no preview');
    assert.equal((result.preview.result as TtsResult).voice.engine, 'sherpa-onnx');
    assert.equal(setting<string>('tts.defaultVoice'), LESSAC);
    assert.ok(await exists(path.join(modelsDir(), 'tts', 'piper-en-us-lessac-medium', 'en_US-lessac-medium.onnx')));
    assert.equal(
      mirror.requestsTo(
        '/huggingface.co/csukuangfj/vits-piper-en_US-lessac-medium/resolve/main/en_US-lessac-medium.onnx',
      ).length,
      1,
    );
    const again = await vscode.commands.executeCommand<ChooseVoiceResult>('speechStudio.chooseVoice', {
      voiceId: LESSAC,
    });
    assert.equal(again?.installed, false, 'an installed voice is chosen without a download');
  } finally {
    await mirror.close();
    await uninstall('piper-en-us-lessac-medium');
    await updateSetting('tts.defaultVoice', pinnedVoice || undefined);
  }
}, 120_000);

test('Previewing a voice that is not installed asks first; installed for a preview, it does not become the default', async () => {
  const mirror = await piperMirror('piper-en-gb-cori-high');
  try {
    // A voice no other test installs: the question is asked only for a voice that is not installed.
    assert.equal(await exists(path.join(modelsDir(), 'tts', 'piper-en-gb-cori-high')), false, 'Cori is not installed');
    await clearNotifications();
    const asking = Promise.resolve(
      vscode.commands.executeCommand<ChooseVoiceResult | undefined>('speechStudio.chooseVoice', {
        voiceId: CORI,
        action: 'preview',
        play: false,
      }),
    );
    const toast = '.notifications-toasts .notification-list-item:has-text("Install it (")';
    // Should the command end without asking, say what it answered rather than time out on the toast.
    const unasked = asking.then((answer) => ({ answer }));
    const first = await Promise.race([
      ui({ action: 'waitFor', selector: toast, timeout: 30_000 }, 40_000).then(() => undefined),
      unasked,
    ]).catch(async (error: unknown) => {
      const toasts = await ui({ action: 'texts', selector: '.notifications-toasts .notification-list-item' }).catch(
        (e: unknown) => String(e),
      );
      const center = await ui({ action: 'texts', selector: '.notifications-center .notification-list-item' }).catch(
        (e: unknown) => String(e),
      );
      throw new Error(`${String(error)}; toasts: ${JSON.stringify(toasts)}; center: ${JSON.stringify(center)}`);
    });
    if (first)
      assert.fail(`Choose Voice previewed without asking first: ${JSON.stringify(first.answer)?.slice(0, 300)}`);
    await ui({ action: 'click', selector: `${toast} .monaco-button:has-text("Cancel")` });
    assert.equal(await asking, undefined, 'declined: no preview');
    assert.equal(mirror.requests.length, 0, 'nothing was downloaded');

    const result = await vscode.commands.executeCommand<ChooseVoiceResult>('speechStudio.chooseVoice', {
      voiceId: CORI,
      action: 'preview',
      install: true,
      play: false,
    });
    assert.equal(result?.installed, true);
    assert.equal(result.preview?.status, 'succeeded', result.preview?.error ?? 'no preview');
    assert.equal(setting<string>('tts.defaultVoice'), pinnedVoice, 'a preview does not change the default voice');
  } finally {
    await mirror.close();
    await uninstall('piper-en-gb-cori-high');
  }
}, 120_000);

const status = (): Thenable<ReadAloudStatus> =>
  vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.status');

test('the first Read Aloud without a neural voice starts at once and offers one neural voice, once', async () => {
  // The walkthrough's test voice is neural: set it aside, so that no neural voice is installed.
  const walkthroughVoice = path.join(modelsDir(), 'tts', 'walkthrough-piper');
  const aside = path.join(setting<string>('dataDirectory'), 'walkthrough-piper-aside');
  const hadWalkthroughVoice = await exists(walkthroughVoice);
  if (hadWalkthroughVoice) await rename(walkthroughVoice, aside);
  const mirror = await piperMirror('piper-en-us-ljspeech-high');
  try {
    await updateSetting('tts.defaultVoice', undefined);
    await clearNotifications();
    await vscode.window.showTextDocument(
      await vscode.workspace.openTextDocument(workspaceFile('read-aloud.md')),
      vscode.ViewColumn.One,
    );
    const first = await vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.document');
    assert.equal(first?.voiceOffer, 'pending', 'the reading started without waiting for the question');
    await waitFor('the first sentence to play while the question is open', async () => {
      const now = await status();
      return now.events.some((e) => e.type === 'started') && now.voiceOffer === 'pending';
    });
    const toast = '.notifications-toasts .notification-list-item:has-text("for natural reading?")';
    await ui({ action: 'waitFor', selector: toast });
    const offered = await ui({ action: 'texts', selector: `${toast} .notification-list-item-message` });
    assert.match(
      String((offered.texts as string[])[0]),
      /^Install Piper English \(US\), Ljspeech \(high\) \(114 MB\) for natural reading\?$/,
    );
    await screenshot('neural-voice-offer', { keepNotifications: true });
    await ui({ action: 'click', selector: `${toast} .monaco-button:has-text("Install")` });
    await waitFor('the voice to be installed', async () => (await status()).voiceOffer === 'installed', 60_000);
    assert.equal(
      setting<string>('tts.defaultVoice'),
      LJSPEECH,
      'the installed voice is the default from the next reading on',
    );
    await vscode.commands.executeCommand('speechStudio.readAloud.stop');

    // Asked once: without any neural voice again, the next reading does not ask.
    await uninstall('piper-en-us-ljspeech-high');
    await updateSetting('tts.defaultVoice', undefined);
    const second = await vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.document');
    assert.ok(second, 'the second reading started');
    await waitFor('the offer to settle', async () => (await status()).voiceOffer === 'not-offered');
    await vscode.commands.executeCommand('speechStudio.readAloud.stop');
  } finally {
    await mirror.close();
    await uninstall('piper-en-us-ljspeech-high');
    // Removing the last catalog voice also removed the emptied tts/ folder.
    await mkdir(path.dirname(walkthroughVoice), { recursive: true });
    if (hadWalkthroughVoice) await rename(aside, walkthroughVoice);
    await updateSetting('tts.defaultVoice', pinnedVoice || undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }
}, 120_000);
