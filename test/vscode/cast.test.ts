import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { CastFile } from '../../src/cast/cast-file';
import type { CastOutcome } from '../../src/jobs/cast-book';
import { TINY_LLM_NAME, tinyLlmModel } from '../helpers/tiny-llm';
import { test } from './harness';
import { EXTENSION_ID, setting } from './helpers';
import { existsSync } from 'node:fs';

const CAST_TIMEOUT_MS = 180_000;

const CHAPTER = `# The Visit

Ann opened the door. “Hello there, Bob,” she said.

Bob shrugged. “The train stopped twice,” he answered.
`;

/** The language model runtime is in the extension, also installed from its .vsix (scripts/package.mjs). */
function runtimeInstalled(): boolean {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  return (
    extension !== undefined &&
    existsSync(path.join(extension.extensionPath, 'node_modules', 'node-llama-cpp', 'package.json'))
  );
}

const hintLabels = async (uri: vscode.Uri, document: vscode.TextDocument): Promise<string[]> => {
  const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>(
    'vscode.executeInlayHintProvider',
    uri,
    new vscode.Range(0, 0, document.lineCount, 0),
  );
  return (hints ?? []).map((hint) =>
    (typeof hint.label === 'string' ? hint.label : hint.label.map((part) => part.value).join('')).trim(),
  );
};

test(
  "Cast Characters writes .speech/cast.json, shows each quote's speaker as an inline hint, and keeps a correction",
  async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vscode-cast-'));
    const installed = path.join(setting<string>('dataDirectory'), 'models', 'llm', TINY_LLM_NAME);
    try {
      await mkdir(path.dirname(installed), { recursive: true });
      await copyFile(await tinyLlmModel(), installed);
      const chapter = path.join(dir, 'chapter.md');
      await writeFile(chapter, CHAPTER);
      const document = await vscode.workspace.openTextDocument(chapter);
      await vscode.window.showTextDocument(document);
      const outcome = await vscode.commands.executeCommand<CastOutcome | undefined>('speechStudio.castCharacters');
      assert.ok(runtimeInstalled(), 'node-llama-cpp is part of the extension, source folder and .vsix alike');
      assert.ok(outcome, 'cast');
      assert.equal(outcome.quotes, 2);
      const cast = JSON.parse(await readFile(path.join(dir, '.speech', 'cast.json'), 'utf8')) as CastFile;
      assert.deepEqual(Object.keys(cast.lines).sort(), ['Hello there, Bob,', 'The train stopped twice,']);
      const speakers = ['Hello there, Bob,', 'The train stopped twice,'].map((quote) => cast.lines[quote].speaker);
      assert.deepEqual(await hintLabels(document.uri, document), speakers, 'one hint per quote, naming its speaker');

      await vscode.commands.executeCommand('speechStudio.correctCastSpeaker', {
        file: chapter,
        quote: 'The train stopped twice,',
        speaker: 'Bob',
      });
      const corrected = JSON.parse(await readFile(path.join(dir, '.speech', 'cast.json'), 'utf8')) as CastFile;
      assert.deepEqual(corrected.lines['The train stopped twice,'], { speaker: 'Bob', corrected: true });
      assert.deepEqual(await hintLabels(document.uri, document), [speakers[0], 'Bob ✓']);

      // Cast again: the correction stays, and nothing already cast is asked again.
      const again = await vscode.commands.executeCommand<CastOutcome>('speechStudio.castCharacters', {
        input: chapter,
      });
      assert.equal(again?.asked, 0);
      assert.deepEqual(again?.cast.lines['The train stopped twice,'], { speaker: 'Bob', corrected: true });
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await rm(installed, { force: true });
      await rm(dir, { recursive: true, force: true });
    }
  },
  CAST_TIMEOUT_MS,
);
