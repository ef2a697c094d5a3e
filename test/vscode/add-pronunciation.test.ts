import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import type { AddPronunciationResult } from '../../src/editor/commands/add-pronunciation';
import type { NarrateResult } from '../../src/editor/commands/narrate-selection';
import type { TtsResult } from '../../src/contract/types';
import { teardown, test } from './harness';
import { clearNotifications, extensionApi, playerShown, setting, ui, waitFor, workspaceFile } from './helpers';

const lexiconFile = () => workspaceFile('.speech', 'lexicon.json').fsPath;

/** Selects `text` in the open pronunciation fixture. */
async function select(text: string): Promise<vscode.TextEditor> {
  const editor = await vscode.window.showTextDocument(
    await vscode.workspace.openTextDocument(workspaceFile('pronunciation.md')),
  );
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
  const result = await vscode.commands.executeCommand<AddPronunciationResult>('speechStudio.addPronunciation', {
    say: 'win',
    choice: 'Save',
    play: false,
  });
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
  assert.ok(
    apart(withEntry, respelled) < 0.03,
    `the text with the entry sounds as long as its respelling (${withEntry.durationSeconds} s, ${respelled.durationSeconds} s)`,
  );

  await writeFile(lexiconFile(), JSON.stringify({ entries: [{ text: 'Nguyen', say: 'win' }, { text: 'GIF' }] }));
  try {
    const plain = await narrate('Nguyen met Nguyen and Nguyen.');
    assert.equal(plain.lexicon, undefined, 'the invalid workspace lexicon was not used');
    assert.ok(
      apart(plain, withEntry) > 0.15,
      `the entry changed how long the text is (${plain.durationSeconds} s without, ${withEntry.durationSeconds} s with)`,
    );
  } finally {
    await rm(path.dirname(lexiconFile()), { recursive: true, force: true });
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  }
});

test('Add Pronunciation keeps its Save / Try Again question open while the preview plays, and confirms the save', async () => {
  await rm(path.dirname(lexiconFile()), { recursive: true, force: true });
  await select('Nguyen');
  await clearNotifications();
  const adding = Promise.resolve(
    vscode.commands.executeCommand<AddPronunciationResult>('speechStudio.addPronunciation', { say: 'win' }),
  );
  const question = '.quick-input-widget:has-text("said as \\"win\\"")';
  await ui({ action: 'waitFor', selector: question }, 30_000);
  // The preview plays in the player (the Speech Studio panel); the question is still there, waiting for its answer.
  await playerShown();
  await ui({ action: 'waitFor', selector: question });
  await ui({ action: 'click', selector: '.quick-input-widget .monaco-list-row:has-text("Save")' });
  const result = await adding;
  assert.equal(result?.savedTo, lexiconFile());
  await ui({
    action: 'waitFor',
    selector: '.notifications-toasts .notification-list-item:has-text("Saved: \\"Nguyen\\" is said \\"win\\"")',
  });
  assert.deepEqual(JSON.parse(await readFile(lexiconFile(), 'utf8')), { entries: [{ text: 'Nguyen', say: 'win' }] });
  await rm(path.dirname(lexiconFile()), { recursive: true, force: true });
}, 90_000);

test('Edit Pronunciations lists the lexicon entries: search, ▶ hears one, Enter edits it, 🗑 asks and deletes it', async () => {
  await mkdir(path.dirname(lexiconFile()), { recursive: true });
  await writeFile(
    lexiconFile(),
    JSON.stringify({
      entries: [
        { text: 'Nguyen', say: 'win' },
        { text: 'GIF', phonemes: 'dZIf', alphabet: 'espeak' },
      ],
    }),
  );
  // The server's own lexicon (every workspace and the Local API use it) is listed after the workspace's.
  const serverLexicon = path.join(setting<string>('dataDirectory'), 'lexicon.json');
  const serverBefore = await readFile(serverLexicon, 'utf8').catch(() => undefined);
  await writeFile(serverLexicon, JSON.stringify({ entries: [{ text: 'Siobhan', say: 'shivawn' }] }));
  const studio = await extensionApi();
  const heard: string[] = [];
  const watching = studio.onDidChangeJob((job) => {
    if (job.status === 'succeeded' && job.name === 'GIF') heard.push(job.id);
  });
  const editing = Promise.resolve(vscode.commands.executeCommand('speechStudio.editPronunciations'));
  const rows = '.quick-input-widget .monaco-list-row';
  const input = '.quick-input-widget input';
  const written = async (): Promise<unknown> => JSON.parse(await readFile(lexiconFile(), 'utf8'));
  try {
    await ui({ action: 'waitFor', selector: `${rows}:has-text("Nguyen"):has-text("→ win")` });
    const texts = (await ui({ action: 'texts', selector: rows })).texts as string[];
    assert.match(texts[0], /Nguyen.*→ win.*Workspace/, texts.join('\n'));
    assert.match(texts[1], /GIF.*→ phonemes: dZIf/);
    assert.match(texts[2], /Siobhan.*→ shivawn.*Speech Studio \(all workspaces and the Local API\)/, texts.join('\n'));
    // Search, then hear the entry: a job speaks the word with it.
    await ui({ action: 'type', selector: input, text: 'gif' });
    const gif = `${rows}.focused:has-text("GIF")`;
    await ui({ action: 'waitFor', selector: gif });
    await ui({ action: 'click', selector: `${gif} .action-label.codicon-play` });
    await waitFor('the entry to be spoken', () => heard[0], 30_000);
    // Enter edits: the input box holds what it says now.
    await ui({ action: 'click', selector: input });
    await ui({ action: 'press', key: 'Enter' });
    await waitFor('the edit box', async () =>
      (await ui({ action: 'property', name: 'value', selector: input })).value === 'phonemes: dZIf' ? true : undefined,
    );
    await ui({ action: 'press', key: 'Control+a' });
    await ui({ action: 'type', selector: input, text: 'jif' });
    await ui({ action: 'press', key: 'Enter' });
    await waitFor('the edit to be written', async () =>
      JSON.stringify(await written()).includes('"say":"jif"') ? true : undefined,
    );
    assert.deepEqual(await written(), {
      entries: [
        { text: 'Nguyen', say: 'win' },
        { text: 'GIF', say: 'jif' },
      ],
    });
    // Delete asks first, in the list itself; Keep it leaves the entry, Delete removes only that entry.
    await ui({ action: 'waitFor', selector: `${rows}:has-text("→ jif")` });
    await ui({ action: 'press', key: 'Control+a' });
    await ui({ action: 'type', selector: input, text: 'nguyen' });
    const nguyen = `${rows}.focused:has-text("Nguyen")`;
    await ui({ action: 'waitFor', selector: nguyen });
    await ui({ action: 'click', selector: `${nguyen} .action-label.codicon-trash` });
    await ui({ action: 'click', selector: `${rows}:has-text("Keep it")` });
    await ui({ action: 'waitFor', selector: `${rows}:has-text("→ jif")` });
    assert.deepEqual(await written(), {
      entries: [
        { text: 'Nguyen', say: 'win' },
        { text: 'GIF', say: 'jif' },
      ],
    });
    await ui({ action: 'type', selector: input, text: 'nguyen' });
    await ui({ action: 'waitFor', selector: nguyen });
    await ui({ action: 'click', selector: `${nguyen} .action-label.codicon-trash` });
    await ui({
      action: 'waitFor',
      selector: '.quick-input-widget:has-text("Delete the pronunciation of \\"Nguyen\\"?")',
    });
    await ui({ action: 'click', selector: `${rows}:has-text("Delete")` });
    await waitFor('the entry to be deleted', async () =>
      JSON.stringify(await written()).includes('Nguyen') ? undefined : true,
    );
    assert.deepEqual(await written(), { entries: [{ text: 'GIF', say: 'jif' }] });
  } finally {
    watching.dispose();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await editing;
    await rm(path.dirname(lexiconFile()), { recursive: true, force: true });
    if (serverBefore === undefined) await rm(serverLexicon, { force: true });
    else await writeFile(serverLexicon, serverBefore);
  }
}, 120_000);
