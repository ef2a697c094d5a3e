/**
 * Create Voice from Recording… and Voice Mix… in the real extension host: a voice cloned from jfk.wav with the
 * synthetic ZipVoice model (text given as confirmed, consent given), a blend of the synthetic Kokoro's
 * speakers; both become library voices with their creationMode, speak, and Remove Voice… removes them. The
 * command without ZipVoice installed refuses and offers the install. The models have random weights.
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
import { setting, testModel, ui } from './helpers';

const target = (id: string, role: string): string => builtinCatalog().models.find((e) => e.id === id)!.files.find((f) => f.role === role)!.target;

test('Create Voice from Recording… clones a voice from a recording; Voice Mix… blends Kokoro speakers; Remove Voice… removes both', async () => {
  const dataDir = setting<string>('dataDirectory');
  const models = path.join(dataDir, 'models');

  const refused = await vscode.commands.executeCommand('speechStudio.createVoiceFromRecording', { clip: testModel('audio/jfk.wav'), name: 'Early', text: 'x', consent: true });
  assert.equal(refused, undefined, 'no ZipVoice model yet: refused with an offer to install it');

  const zipvoice = 'zipvoice-distill-int8-zh-en-emilia';
  writeZipVoiceModel(path.dirname(path.join(models, target(zipvoice, 'encoder'))), await readFile(testModel('sherpa-synthetic/vits-piper/tokens.txt'), 'utf8'), {
    encoder: path.basename(target(zipvoice, 'encoder')), decoder: path.basename(target(zipvoice, 'decoder')), vocoder: path.basename(target(zipvoice, 'vocoder')),
    tokens: path.basename(target(zipvoice, 'tokens')), lexicon: '.unused-lexicon.txt',
  });
  await mkdir(path.join(models, 'vad'), { recursive: true });
  await copyFile(testModel('vad/ggml-silero-v6.2.0.bin'), path.join(models, 'vad', 'ggml-silero-v6.2.0.bin'));

  const cloned = await vscode.commands.executeCommand<{ id: string; name: string }>('speechStudio.createVoiceFromRecording', {
    clip: testModel('audio/jfk.wav'), name: 'Editor Clone', text: 'And so my fellow Americans, ask not what your country can do for you.', consent: true,
  });
  if (!cloned) {
    const shown = await ui({ action: 'texts', selector: '.notifications-toasts .notification-list-item-message' });
    assert.fail(`Create Voice from Recording refused: ${JSON.stringify(shown.texts)}`);
  }
  assert.equal(cloned.name, 'Editor Clone');
  const noConsent = await vscode.commands.executeCommand('speechStudio.createVoiceFromRecording', { clip: testModel('audio/jfk.wav'), name: 'Unconsented', text: 'x', consent: false });
  assert.equal(noConsent, undefined, 'refused without consent');

  const kokoro = 'kokoro-en-v0.19';
  const speakers = catalogSpeakerKeys(kokoro);
  const synthetic = await readFile(testModel('sherpa-synthetic/kokoro/model.onnx'));
  const metadata = onnxMetadata(synthetic);
  await mkdir(path.dirname(path.join(models, target(kokoro, 'model'))), { recursive: true });
  await writeFile(path.join(models, target(kokoro, 'model')), withOnnxMetadata(synthetic, { ...metadata, n_speakers: String(speakers.length) }));
  const [rows, , width] = metadata.style_dim.split(',').map(Number);
  await writeFile(path.join(models, target(kokoro, 'voices')), makeKittenVoices(11, speakers.length, [rows, width]));
  await copyFile(testModel('sherpa-synthetic/kokoro/tokens.txt'), path.join(models, target(kokoro, 'tokens')));
  const mixed = await vscode.commands.executeCommand<{ id: string; name: string }>('speechStudio.voiceMix', { mix: 'af_sarah:0.5,bm_george:0.5', name: 'Editor Mix' });
  assert.equal(mixed?.name, 'Editor Mix');

  const library = createVoiceLibrary({ dataDir });
  assert.equal(library.get(cloned!.id)?.voice.creationMode, 'cloned');
  assert.equal(library.get(cloned!.id)?.voice.availability, 'ready');
  assert.equal(library.get(mixed!.id)?.voice.creationMode, 'designed');

  for (const name of ['Editor Clone', 'Editor Mix']) {
    assert.equal(await vscode.commands.executeCommand('speechStudio.removeOwnVoice', name), name);
  }
  assert.equal(library.get(cloned!.id), undefined);
  assert.equal(library.get(mixed!.id), undefined);
}, 180_000);
