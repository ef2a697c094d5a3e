import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { NarrateResult } from '../../src/editor/commands/narrate-selection';
import { test } from './harness';
import { screenshot, ui, waitFor, workspaceFile } from './helpers';

function wavDurationSeconds(wav: Buffer): number {
  assert.equal(wav.subarray(0, 4).toString('latin1'), 'RIFF');
  assert.equal(wav.subarray(8, 12).toString('latin1'), 'WAVE');
  const byteRate = wav.readUInt32LE(28);
  return (wav.length - 44) / byteRate;
}

test('Narrate Selection speaks the paragraph at the cursor and plays it in the player', async () => {
  const document = await vscode.workspace.openTextDocument(workspaceFile('chapter.md'));
  const editor = await vscode.window.showTextDocument(document);
  const line = document.getText().split('\n').findIndex((l) => l.startsWith('The second paragraph'));
  editor.selection = new vscode.Selection(line, 5, line, 5);
  const result = await vscode.commands.executeCommand<NarrateResult>('speechStudio.narrateSelection');
  assert.ok(result, 'the command returns its job');
  assert.equal(result.job.status, 'succeeded', result.job.error ?? '');
  assert.match(result.job.name, /^The second paragraph/);
  const seconds = wavDurationSeconds(await readFile(result.audioPath!));
  assert.ok(seconds > 1, `a paragraph takes more than a second to say (got ${seconds})`);
  await waitFor('the player to open', () => vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((tab) => tab.label === 'Speech Studio Player'));
  // The player's <audio> element, two iframes deep in the webview, has loaded the narration's length.
  const audio = { frames: ['iframe.webview.ready', 'iframe#active-frame'], selector: 'audio' };
  await ui({ action: 'waitFor', ...audio });
  const duration = await waitFor('the player to load the audio', async () => {
    const { value } = await ui({ action: 'property', name: 'duration', ...audio });
    return typeof value === 'number' && value > 0 ? value : undefined;
  });
  assert.ok(Math.abs(duration - seconds) < 0.1, `the player has the narration (${duration} s, the file ${seconds} s)`);
  await screenshot('narrate-selection', { keepNotifications: true });
});

test('Narrate Selection speaks exactly the selected text', async () => {
  const editor = vscode.window.activeTextEditor!;
  const line = editor.document.lineAt(0);
  editor.selection = new vscode.Selection(0, 2, 0, line.text.length);
  const result = await vscode.commands.executeCommand<NarrateResult>('speechStudio.narrateSelection', { play: false });
  assert.equal(result?.job.status, 'succeeded');
  assert.equal(result.job.name, line.text.slice(2).trim());
});
