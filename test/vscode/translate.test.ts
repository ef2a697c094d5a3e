import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { TranslateSubtitlesResult } from '../../src/editor/commands/translate-subtitles';
import { TINY_LLM_NAME, tinyLlmModel } from '../helpers/tiny-llm';
import { test } from './harness';
import { EXTENSION_ID, setting } from './helpers';

/** The tiny model is quick, but the machine running the suite may be loaded many times over. */
const TRANSLATE_TIMEOUT_MS = 180_000;

const SOURCE = `1
00:00:01,000 --> 00:00:03,500
And so, my fellow Americans,

2
00:00:03,600 --> 00:00:05,000
ask not what your country can do for you,

3
00:00:05,100 --> 00:00:09,000
ask what you can do for your country.

`;

const timesOf = (srt: string): string[] => srt.split('\n').filter((line) => line.includes(' --> '));

/** The language model runtime (node-llama-cpp with this platform's binaries) is in the extension, also installed from its .vsix. */
function runtimeInstalled(): boolean {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  return (
    extension !== undefined &&
    existsSync(path.join(extension.extensionPath, 'node_modules', 'node-llama-cpp', 'package.json'))
  );
}

test(
  'Translate Subtitle File writes the translation beside the file: the same cues at the same times, as a job',
  async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vscode-translate-'));
    const installed = path.join(setting<string>('dataDirectory'), 'models', 'llm', TINY_LLM_NAME);
    try {
      await mkdir(path.dirname(installed), { recursive: true });
      await copyFile(await tinyLlmModel(), installed);
      const input = path.join(dir, 'speech.srt');
      await writeFile(input, SOURCE);
      await vscode.window.showTextDocument(vscode.Uri.file(input));
      // The active .srt editor is the input; the language is given, as a user types it in the input box.
      const done = await vscode.commands.executeCommand<TranslateSubtitlesResult>(
        'speechStudio.translateSubtitleFile',
        { to: 'de' },
      );
      assert.ok(runtimeInstalled(), 'node-llama-cpp is part of the extension, source folder and .vsix alike');
      assert.equal(done?.status, 'succeeded', done?.error ?? '');
      assert.equal(done.output, path.join(dir, 'speech.de.srt'));
      const translated = await readFile(done.output, 'utf8');
      assert.deepEqual(timesOf(translated), timesOf(SOURCE));
      assert.equal(done.result?.cues, 3);
      assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, done.output, 'the translation is opened');
    } finally {
      await rm(installed, { force: true });
      await rm(dir, { recursive: true, force: true });
    }
  },
  TRANSLATE_TIMEOUT_MS,
);

test('Translate Subtitle File without a language model says how to install one, and writes nothing', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vscode-translate-'));
  try {
    const input = path.join(dir, 'speech.srt');
    await writeFile(input, SOURCE);
    const done = await vscode.commands.executeCommand<TranslateSubtitlesResult>('speechStudio.translateSubtitleFile', {
      input,
      to: 'de',
    });
    assert.equal(done, undefined, 'refused before any job');
    await assert.rejects(readFile(path.join(dir, 'speech.de.srt')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
