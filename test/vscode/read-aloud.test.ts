import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ReadAloudEvent, ReadAloudStatus } from '../../src/editor/read-aloud/read-aloud';
import { test } from './harness';
import { screenshot, waitFor, workspaceFile } from './helpers';

const status = (): Thenable<ReadAloudStatus> => vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.status');

/** Waits for an event of the reading that matches, after the first `after` events. */
async function event(what: string, match: (event: ReadAloudEvent) => boolean, after = 0, timeoutMs = 30_000): Promise<ReadAloudEvent> {
  return waitFor(what, async () => (await status()).events.slice(after).find(match), timeoutMs);
}

const started = (index: number) => (e: ReadAloudEvent): boolean => e.type === 'started' && e.index === index;
const stateIs = (state: string) => async (): Promise<ReadAloudStatus | undefined> => {
  const now = await status();
  return now.state === state ? now : undefined;
};

async function openFixture(): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(workspaceFile('read-aloud.md'));
  return vscode.window.showTextDocument(document, vscode.ViewColumn.One);
}

test('Read Document Aloud highlights each sentence as the player starts it, in order', async () => {
  const editor = await openFixture();
  const first = await vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.document');
  assert.ok(first, 'the command returns the reading');
  assert.equal(first.count, 8, 'heading, three sentences, two list items, two sentences; the code block is silent');
  await event('the second sentence to start playing', started(1));
  const { events } = await status();
  const at = (type: string, index: number): number => events.findIndex((e) => e.type === type && 'index' in e && e.index === index);
  assert.ok(at('audio', 0) >= 0 && at('audio', 0) < at('started', 0), 'the first audio reaches the player before it plays');
  assert.ok(at('started', 0) < at('highlight', 0), 'the sentence is highlighted when the player starts it');
  assert.ok(at('highlight', 0) < at('started', 1) && at('started', 1) < at('highlight', 1), 'then the second sentence, in order');
  const highlights = events.filter((e) => e.type === 'highlight').map((e) => (e as { text?: string }).text);
  assert.equal(highlights[0], 'Reading aloud');
  assert.equal(highlights[1], 'The first sentence is short.');
  const words = events.filter((e) => e.type === 'word' && e.index === 0).map((e) => (e as { text: string }).text);
  assert.deepEqual(words, ['Reading', 'aloud'], 'espeak-ng reports when each word starts');
  const when = (type: string): number | undefined => events.find((e) => e.type === type)?.at;
  console.log(`      (after the command: first audio ready ${when('audio')} ms, player ready ${when('player')} ms, playing ${when('started')} ms)`);
  assert.equal(vscode.window.activeTextEditor?.document, editor.document, 'the player opens beside without taking the focus');
  await screenshot('read-aloud');
});

test('Read Aloud pauses, resumes, skips to the next sentence, changes speed and stops', async () => {
  await vscode.commands.executeCommand('speechStudio.readAloud.togglePause');
  assert.equal((await status()).state, 'paused');
  await vscode.commands.executeCommand('speechStudio.readAloud.togglePause');
  assert.ok(['playing', 'loading'].includes((await status()).state), 'resumed');
  const before = await status();
  await vscode.commands.executeCommand('speechStudio.readAloud.next');
  await event(`sentence ${before.current + 2} to start after Next`, started(before.current + 1), before.events.length);
  await vscode.commands.executeCommand('speechStudio.readAloud.faster');
  assert.equal((await status()).speed, 1.1);
  await vscode.commands.executeCommand('speechStudio.readAloud.previous');
  const back = await status();
  assert.equal(back.current, before.current, 'Previous goes back one sentence');
  await vscode.commands.executeCommand('speechStudio.readAloud.stop');
  const stopped = await status();
  assert.equal(stopped.state, 'stopped');
  assert.equal(stopped.events.at(-1)?.type, 'state');
});

test('Editing the text being read stops Read Aloud', async () => {
  const editor = await openFixture();
  editor.selection = new vscode.Selection(4, 0, 4, 0);
  const reading = await vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.fromCursor');
  assert.equal(reading?.count, 4, 'from the list on: two items and the last two sentences');
  const playing = await event('the reading to start', started(0));
  console.log(`      (with the player open and the engine warm: first audio playing ${playing.at} ms after the command)`);
  await editor.edit((edit) => edit.insert(new vscode.Position(12, 0), 'A new line.\n'));
  const now = await waitFor('the reading to stop', stateIs('stopped'));
  assert.match(JSON.stringify(now.events.at(-1)), /the text changed/);
  await vscode.commands.executeCommand('workbench.action.files.revert');
});

test('Closing the editor stops Read Aloud', async () => {
  const editor = await openFixture();
  editor.selection = new vscode.Selection(2, 0, 2, 60);
  const reading = await vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.selection');
  assert.equal(reading?.count, 2, 'the selection holds two sentences');
  await event('the reading to start', started(0));
  await vscode.window.showTextDocument(editor.document, vscode.ViewColumn.One);
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  const now = await waitFor('the reading to stop', stateIs('stopped'));
  assert.match(JSON.stringify(now.events.at(-1)), /editor was closed/);
  // The tests after these expect the window as it was: close the player.
  const player = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.label === 'Read Aloud');
  await vscode.window.tabGroups.close(player);
});
