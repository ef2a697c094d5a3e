import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import type { AddPronunciationResult } from '../../src/editor/commands/add-pronunciation';
import type { NarrateResult } from '../../src/editor/commands/narrate-selection';
import type { TtsResult } from '../../src/contract/types';
import { teardown, test } from './harness';
import { clearNotifications, ui, waitFor, workspaceFile } from './helpers';

const lexiconFile = () => workspaceFile('.speech', 'lexicon.json').fsPath;

/** Selects `text` in the open pronunciation fixture. */
async function select(text: string): Promise<vscode.TextEditor> {
  const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(workspaceFile('pronunciation.md')));
  const at = editor.document.getText().indexOf(text);
  assert.ok(at >= 0, `the fixture has "${text}"`);
  editor.selection = new vscode.Selection(editor.document.positionAt(at), editor.document.positionAt(at + text.length));
  return editor;
}

/** Narrate Selection of `text` in the fixture; the job's result. */
async function narrate(text: string): Promise<TtsResult> {
  await select(text);
  const result = await vscode.commands.executeCommand<NarrateResult>('speechStudio.narrateSelection', { play: false });
  assert.equal(result?.job.status, 'succeeded', result?.job.error ?? 'no job');
  return result.job.result as TtsResult;
}

teardown(() => rm(path.dirname(lexiconFile()), { recursive: true, force: true }));

test('Add Pronunciation… on a selected word previews it with the entry and saves it in .speech/lexicon.json', async () => {
  await rm(path.dirname(lexiconFile()), { recursive: true, force: true });
  await select('Nguyen');
  const result = await vscode.commands.executeCommand<AddPronunciationResult>('speechStudio.addPronunciation', { say: 'win', choice: 'Save', play: false });
  assert.ok(result, 'the command returns its preview and entry');
  assert.equal(result.job.status, 'succeeded', result.job.error ?? '');
  assert.deepEqual((result.job.result as TtsResult).lexicon, { applied: ['Nguyen'], skipped: [] });
  assert.equal(result.savedTo, lexiconFile());
  assert.deepEqual(JSON.parse(await readFile(lexiconFile(), 'utf8')), { entries: [{ text: 'Nguyen', say: 'win' }] });
});

test('Narrate Selection of a word with a workspace entry says the respelling; an invalid lexicon file is left out', async () => {
  // espeak-ng's noise carries over between jobs of one engine process (and with it where the trailing silence
  // is trimmed, by some milliseconds), so compare lengths, not samples: the word three times makes the
  // entry's effect (about 0.09 s a word) far larger than that.
  const withEntry = await narrate('Nguyen met Nguyen and Nguyen.');
  assert.deepEqual(withEntry.lexicon, { applied: ['Nguyen'], skipped: [] });
  const respelled = await narrate('win met win and win.');
  assert.equal(respelled.lexicon, undefined);
  const apart = (a: TtsResult, b: TtsResult) => Math.abs(a.durationSeconds - b.durationSeconds);
  assert.ok(apart(withEntry, respelled) < 0.03, `the text with the entry sounds as long as its respelling (${withEntry.durationSeconds} s, ${respelled.durationSeconds} s)`);

  await writeFile(lexiconFile(), JSON.stringify({ entries: [{ text: 'Nguyen', say: 'win' }, { text: 'GIF' }] }));
  try {
    const plain = await narrate('Nguyen met Nguyen and Nguyen.');
    assert.equal(plain.lexicon, undefined, 'the invalid workspace lexicon was not used');
    assert.ok(apart(plain, withEntry) > 0.15, `the entry changed how long the text is (${plain.durationSeconds} s without, ${withEntry.durationSeconds} s with)`);
  } finally {
    await rm(path.dirname(lexiconFile()), { recursive: true, force: true });
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  }
});

test('Add Pronunciation keeps its Save / Try Again question open while the preview plays, and confirms the save', async () => {
  await rm(path.dirname(lexiconFile()), { recursive: true, force: true });
  await select('Nguyen');
  await clearNotifications();
  const adding = Promise.resolve(vscode.commands.executeCommand<AddPronunciationResult>('speechStudio.addPronunciation', { say: 'win' }));
  const question = '.quick-input-widget:has-text("said as \\"win\\"")';
  await ui({ action: 'waitFor', selector: question }, 30_000);
  // The preview plays in the player beside; the question is still there, waiting for its answer.
  await waitFor('the player to open', () => vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((tab) => tab.label === 'Speech Studio Player'));
  await ui({ action: 'waitFor', selector: question });
  await ui({ action: 'click', selector: '.quick-input-widget .monaco-list-row:has-text("Save")' });
  const result = await adding;
  assert.equal(result?.savedTo, lexiconFile());
  await ui({ action: 'waitFor', selector: '.notifications-toasts .notification-list-item:has-text("Saved: \\"Nguyen\\" is said \\"win\\"")' });
  assert.deepEqual(JSON.parse(await readFile(lexiconFile(), 'utf8')), { entries: [{ text: 'Nguyen', say: 'win' }] });
  await rm(path.dirname(lexiconFile()), { recursive: true, force: true });
}, 90_000);
