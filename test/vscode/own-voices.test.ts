/**
 * Create Voice from Recording…, Voice Mix… and Remove Voice… in the real extension host, answered in the
 * workbench as a user answers them: a voice cloned from jfk.wav with the synthetic ZipVoice model (the words
 * typed or confirmed in the input box, consent given as an argument), a blend of two of the synthetic
 * Kokoro's speakers picked with check boxes; each then shows in Choose Voice, and is gone from it once removed.
 * Without ZipVoice installed the command refuses and offers the install. The models have random weights.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import { builtinCatalog } from '../../src/models/catalog';
import { createVoiceLibrary } from '../../src/voices/library';
import { catalogSpeakerKeys } from '../../src/voices/neural-voices';
import { makeKittenVoices, onnxMetadata, withOnnxMetadata } from '../fixtures/kitten/make-kitten-model';
import { writeZipVoiceModel } from '../fixtures/zipvoice/make-zipvoice-model';
import { test } from './harness';
import { clearNotifications, setting, testModel, ui } from './helpers';

const target = (id: string, role: string): string =>
  builtinCatalog()
    .models.find((e) => e.id === id)!
    .files.find((f) => f.role === role)!.target;

const quickInput = '.quick-input-widget';
const input = `${quickInput} .quick-input-box input`;
const row = (text: string): string => `${quickInput} .monaco-list-row:has-text(${JSON.stringify(text)})`;

/** Answers the input box titled `title` (which may hold a suggestion) with `text`. */
async function answerInputBox(title: string, text: string): Promise<void> {
  await ui({ action: 'waitFor', selector: `${quickInput}:has-text(${JSON.stringify(title)})` }, 60_000);
  await ui({ action: 'click', selector: input });
  await ui({ action: 'press', key: 'Control+a' });
  if (text) await ui({ action: 'type', selector: input, text });
  else await ui({ action: 'press', key: 'Backspace' });
  await ui({ action: 'press', key: 'Enter' });
  await ui({ action: 'waitFor', selector: `${quickInput}:has-text(${JSON.stringify(title)})`, state: 'hidden' });
}

/** Whether Choose Voice lists a voice named `name` (searched for as a user would), closing it again. */
async function chooseVoiceLists(name: string, expected: boolean): Promise<void> {
  const picking = Promise.resolve(vscode.commands.executeCommand('speechStudio.chooseVoice'));
  await ui({ action: 'waitFor', selector: `${quickInput}:has-text("Choose Voice") .quick-input-box input` });
  await ui({ action: 'type', selector: input, text: name });
  await ui({ action: 'waitFor', selector: row(name), state: expected ? 'visible' : 'hidden' });
  await ui({ action: 'press', key: 'Escape' });
  assert.equal(await picking, undefined, 'dismissed');
}

test('Create Voice from Recording… clones a voice from a recording; Voice Mix… blends Kokoro speakers; Remove Voice… removes both; each shows in Choose Voice', async () => {
  const dataDir = setting<string>('dataDirectory');
  const models = path.join(dataDir, 'models');
  await clearNotifications();

  const refused = await vscode.commands.executeCommand('speechStudio.createVoiceFromRecording', {
    clip: testModel('audio/jfk.wav'),
    name: 'Early',
    text: 'x',
    consent: true,
  });
  assert.equal(refused, undefined, 'no ZipVoice model yet: refused with an offer to install it');
  await clearNotifications();

  const zipvoice = 'zipvoice-distill-int8-zh-en-emilia';
  writeZipVoiceModel(
    path.dirname(path.join(models, target(zipvoice, 'encoder'))),
    await readFile(testModel('sherpa-synthetic/vits-piper/tokens.txt'), 'utf8'),
    {
      encoder: path.basename(target(zipvoice, 'encoder')),
      decoder: path.basename(target(zipvoice, 'decoder')),
      vocoder: path.basename(target(zipvoice, 'vocoder')),
      tokens: path.basename(target(zipvoice, 'tokens')),
      lexicon: '.unused-lexicon.txt',
    },
  );
  await mkdir(path.join(models, 'vad'), { recursive: true });
  await copyFile(testModel('vad/ggml-silero-v6.2.0.bin'), path.join(models, 'vad', 'ggml-silero-v6.2.0.bin'));

  // The words and the name are answered in the workbench's boxes. With a recognizer installed (earlier tests) the
  // box offers its words to correct; without one it asks for them. Consent is an argument: VS Code refuses modal
  // dialogs while extension tests run ("DialogService: refused to show dialog in tests").
  const cloning = Promise.resolve(
    vscode.commands.executeCommand<{ id: string; name: string }>('speechStudio.createVoiceFromRecording', {
      clip: testModel('audio/jfk.wav'),
      consent: true,
    }),
  );
  await answerInputBox(
    'What the recording says',
    'And so my fellow Americans, ask not what your country can do for you.',
  );
  await answerInputBox('Name the voice', 'Editor Clone');
  const cloned = await cloning;
  if (!cloned) {
    const shown = await ui({ action: 'texts', selector: '.notifications-toasts .notification-list-item-message' });
    assert.fail(`Create Voice from Recording refused: ${JSON.stringify(shown.texts)}`);
  }
  assert.equal(cloned.name, 'Editor Clone');
  await chooseVoiceLists('Editor Clone', true);
  const noConsent = await vscode.commands.executeCommand('speechStudio.createVoiceFromRecording', {
    clip: testModel('audio/jfk.wav'),
    name: 'Unconsented',
    text: 'x',
    consent: false,
  });
  assert.equal(noConsent, undefined, 'refused without consent');

  const kokoro = 'kokoro-en-v0.19';
  const speakers = catalogSpeakerKeys(kokoro);
  const synthetic = await readFile(testModel('sherpa-synthetic/kokoro/model.onnx'));
  const metadata = onnxMetadata(synthetic);
  await mkdir(path.dirname(path.join(models, target(kokoro, 'model'))), { recursive: true });
  await writeFile(
    path.join(models, target(kokoro, 'model')),
    withOnnxMetadata(synthetic, { ...metadata, n_speakers: String(speakers.length) }),
  );
  const [rows, , width] = metadata.style_dim.split(',').map(Number);
  await writeFile(path.join(models, target(kokoro, 'voices')), makeKittenVoices(11, speakers.length, [rows, width]));
  await copyFile(testModel('sherpa-synthetic/kokoro/tokens.txt'), path.join(models, target(kokoro, 'tokens')));

  // Voice Mix…: two speakers checked in the pick (found by their keys), the suggested weights kept, a name typed.
  const library = createVoiceLibrary({ dataDir });
  const mixing = Promise.resolve(vscode.commands.executeCommand<{ id: string; name: string }>('speechStudio.voiceMix'));
  for (const key of ['af_sarah', 'bm_george']) {
    await ui({ action: 'waitFor', selector: `${quickInput}:has-text("Voice Mix") .quick-input-box input` });
    await ui({ action: 'click', selector: input });
    await ui({ action: 'press', key: 'Control+a' });
    await ui({ action: 'type', selector: input, text: key });
    await ui({ action: 'click', selector: row(key) });
  }
  await ui({ action: 'press', key: 'Enter' });
  // One box per speaker, in the pick's order: each answered with the weight it suggests.
  for (let box = 0; box < 2; box++) {
    await ui({ action: 'waitFor', selector: `${quickInput}:has-text("Weight of")` });
    const [title] = (await ui({ action: 'texts', selector: `${quickInput} .quick-input-title` })).texts as string[];
    assert.match(title, /^Weight of /);
    await answerInputBox(title, '0.50');
  }
  await answerInputBox('Name the mixed voice', 'Editor Mix');
  const mixed = await mixing;
  assert.equal(mixed?.name, 'Editor Mix');
  await chooseVoiceLists('Editor Mix', true);

  assert.equal(library.get(cloned.id)?.voice.creationMode, 'cloned');
  assert.equal(library.get(cloned.id)?.voice.availability, 'ready');
  assert.equal(library.get(mixed.id)?.voice.creationMode, 'designed');

  // Remove Voice…: picked by name from the voices of your own.
  for (const name of ['Editor Clone', 'Editor Mix']) {
    const removing = Promise.resolve(vscode.commands.executeCommand('speechStudio.removeOwnVoice'));
    await ui({
      action: 'waitFor',
      selector: `${quickInput}:has-text("Remove a voice of your own") .quick-input-box input`,
    });
    await ui({ action: 'type', selector: input, text: name });
    await ui({ action: 'click', selector: row(name) });
    assert.equal(await removing, name);
    await chooseVoiceLists(name, false);
  }
  assert.equal(library.get(cloned.id), undefined);
  assert.equal(library.get(mixed.id), undefined);
}, 240_000);
