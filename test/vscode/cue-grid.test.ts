// The cue grid in the real workbench: a cell edited in the page becomes one document edit that undo takes
// back, the video preview reports the cue it shows at a time (and draws it over the picture), a row selected
// reveals its cue in the text editor, and the text editor's cursor selects the row.
import assert from 'node:assert/strict';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import type { CueGrid } from '../../src/editor/subtitles/cue-grid';
import type { CuePlayback } from '../../src/editor/subtitles/cue-play';
import { makeShotVideo } from '../helpers/shot-video';
import { teardown, test } from './harness';
import { closePanelViews, screenshot, setting, testModel, ui, updateSetting, waitFor, workspaceFile } from './helpers';

// talk.srt beside talk.mp4 (6.5 s of test pictures with hard cuts, a tone as its sound).
const TALK = [
  '1',
  '00:00:00,300 --> 00:00:02,000',
  'And so my fellow Americans,',
  '',
  '2',
  '00:00:02,500 --> 00:00:03,700',
  'ask not',
  '',
  '3',
  '00:00:04,000 --> 00:00:05,000',
  'what your country can do for you, ask what you can do for your country.',
  '',
  '4',
  '00:00:05,500 --> 00:00:06,400',
  'The end.',
  '',
].join('\n');
const webview = ['iframe.webview.ready', 'iframe#active-frame'];
const folder = (): vscode.Uri => workspaceFile('cue-grid');
const talk = (): vscode.Uri => workspaceFile('cue-grid', 'talk.srt');
const document = (): vscode.TextDocument | undefined =>
  vscode.workspace.textDocuments.find((d) => d.uri.toString() === talk().toString());

async function changedTo(expected: string, what: string): Promise<void> {
  await waitFor(what, () => (document()?.getText() === expected ? true : undefined)).catch((error: unknown) => {
    throw new Error(`${String(error)}; the document: ${JSON.stringify(document()?.getText())}`);
  });
}

let checkWas: boolean | undefined;
teardown(async () => {
  await rm(folder().fsPath, { recursive: true, force: true });
  if (checkWas !== undefined) await updateSetting('subtitles.check', checkWas);
});

test('the cue grid shows each cue with its reading speed and problems, and a cell edit is one document edit that undo reverts', async () => {
  await mkdir(folder().fsPath, { recursive: true });
  await writeFile(talk().fsPath, TALK);
  checkWas = setting<boolean>('subtitles.check');
  await updateSetting('subtitles.check', true);
  await makeShotVideo(path.join(folder().fsPath, 'talk.mp4'));
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.window.showTextDocument(talk(), { viewColumn: vscode.ViewColumn.One });
  const grid = await vscode.commands.executeCommand<CueGrid>('speechStudio.openCueGrid', talk());
  assert.ok(grid, 'the command returns the grid');
  assert.equal(path.basename(grid.media?.fsPath ?? ''), 'talk.mp4', 'the video beside the file is its media');
  await waitFor("the rows with the checker's problems", () =>
    grid.rows().length === 4 && grid.rows()[2].problems.length > 0 ? true : undefined,
  );
  assert.deepEqual(
    grid.rows().map((r) => [r.index, r.duration, r.charsPerSecond]),
    [
      [1, 1.7, 15.9],
      [2, 1.2, 5.8],
      [3, 1, 71],
      [4, 0.9, 8.9],
    ],
  );
  assert.ok(
    grid.rows()[2].problems.some((p) => /71\.0 characters per second/.test(p)),
    grid.rows()[2].problems.join('; '),
  );
  assert.equal((await ui({ action: 'count', frames: webview, selector: 'tbody tr' })).count, 4);
  await ui({ action: 'waitFor', frames: webview, selector: 'tr[data-index="3"] td.cps.fast' });

  // Typing in a text cell and pressing Enter edits the document; undo takes it back in one step.
  const edited = TALK.replace('ask not', 'ask not, ask');
  await ui({ action: 'click', frames: webview, selector: 'tr[data-index="2"] td.text textarea' });
  await ui({ action: 'press', key: 'Control+A' });
  await ui({ action: 'type', frames: webview, selector: 'tr[data-index="2"] td.text textarea', text: 'ask not, ask' });
  await ui({ action: 'press', key: 'Enter' });
  await changedTo(edited, 'the text edit in the document');
  assert.equal(document()?.isDirty, true, 'an unsaved edit, as typing makes');
  await vscode.commands.executeCommand('undo');
  await changedTo(TALK, 'the undo');

  // A time cell: the start of cue 4, typed as seconds, written the SRT way; undo again.
  await ui({ action: 'click', frames: webview, selector: 'tr[data-index="4"] td.start input' });
  await ui({ action: 'press', key: 'Control+A' });
  await ui({ action: 'type', frames: webview, selector: 'tr[data-index="4"] td.start input', text: '5.25' });
  await ui({ action: 'press', key: 'Enter' });
  await changedTo(TALK.replace('00:00:05,500 --> 00:00:06,400', '00:00:05,250 --> 00:00:06,400'), 'the start edit');
  await waitFor('the row redrawn', () => (grid.rows()[3].start === 5.25 ? true : undefined));
  await vscode.commands.executeCommand('undo');
  await changedTo(TALK, 'the second undo');

  // A time that is not one is refused with a sentence, and the document stays as it was.
  const refused = grid.refused();
  await ui({ action: 'click', frames: webview, selector: 'tr[data-index="1"] td.end input' });
  await ui({ action: 'press', key: 'Control+A' });
  await ui({ action: 'type', frames: webview, selector: 'tr[data-index="1"] td.end input', text: 'soon' });
  await ui({ action: 'press', key: 'Enter' });
  assert.match(await refused, /"soon" is not a time/);
  assert.equal(document()?.getText(), TALK);
  await vscode.commands.executeCommand('notifications.clearAll');
}, 90_000);

test('the video preview shows the cue of a given time over the picture, follows the text editor, and a selected row reveals its cue', async () => {
  const grid = await vscode.commands.executeCommand<CueGrid>('speechStudio.openCueGrid', talk());
  assert.ok(grid);
  for (const [seconds, cue, text] of [
    [3, 2, 'ask not'],
    [3.85, null, ''],
    [4.5, 3, 'what your country'],
    [0.1, null, ''],
  ] as const) {
    const shown = await grid.showAt(seconds);
    assert.ok(Math.abs(shown.time - seconds) < 0.05, `the video went to ${shown.time} s, asked ${seconds} s`);
    assert.equal(shown.cue, cue, `the cue shown at ${seconds} s`);
    assert.ok(shown.text.startsWith(text), `over the picture at ${seconds} s: ${JSON.stringify(shown.text)}`);
  }
  await grid.showAt(3);
  assert.deepEqual((await ui({ action: 'texts', frames: webview, selector: '#overlay' })).texts, ['ask not']);
  const { value: width } = await ui({ action: 'property', frames: webview, selector: '#video', name: 'videoWidth' });
  assert.equal(width, 160, 'the browser decoded the video');

  // A click on a row reveals its cue in the text editor beside, the cursor on its text.
  await ui({ action: 'click', frames: webview, selector: 'tr[data-index="3"] td.number' });
  const editor = await waitFor('the text editor at cue 3', () =>
    vscode.window.visibleTextEditors.find(
      (e) => e.document.uri.toString() === talk().toString() && e.selection.active.line === 10,
    ),
  );
  await ui({ action: 'waitFor', frames: webview, selector: 'tr.selected[data-index="3"]' });
  await waitFor("the preview at cue 3's start", async () =>
    ((await ui({ action: 'texts', frames: webview, selector: '#overlay' })).texts as string[])[0]?.startsWith(
      'what your',
    )
      ? true
      : undefined,
  );

  // The text editor's cursor selects the row and moves the preview to its cue.
  editor.selection = new vscode.Selection(14, 0, 14, 0);
  await ui({ action: 'waitFor', frames: webview, selector: 'tr.selected[data-index="4"]' });
  await waitFor('the preview at cue 4', async () =>
    ((await ui({ action: 'texts', frames: webview, selector: '#overlay' })).texts as string[])[0] === 'The end.'
      ? true
      : undefined,
  );
  // The picture for the docs, with the room a subtitler gives the grid: the side bar closed.
  await vscode.commands.executeCommand('workbench.action.closeSidebar');
  await screenshot('cue-grid');
  await vscode.commands.executeCommand('workbench.view.explorer');

  // The player's playhead moves the preview too: cue 2 played in the player leaves it at cue 2's end, 3.7 s,
  // while the text editor's cursor stays in cue 4.
  const lenses = await waitFor('the Play lenses', async () => {
    const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', talk(), 10);
    return found.length === 4 ? found : undefined;
  });
  const play = lenses[1].command!;
  const playback = await vscode.commands.executeCommand<CuePlayback>(play.command, ...(play.arguments ?? []));
  assert.equal(playback?.report.state, 'playing', playback?.report.error ?? 'nothing played');
  assert.equal((await playback.ended).position, 3.7);
  await waitFor("the preview at the player's playhead", async () =>
    ((await ui({ action: 'texts', frames: webview, selector: '#clock' })).texts as string[])[0] === '0:03.700'
      ? true
      : undefined,
  );
  assert.equal(editor.selection.active.line, 14, 'the cursor stayed: the player moved the preview');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await closePanelViews();
}, 90_000);

test('for an audio file the preview is its waveform, and it still shows the cue of a given time', async () => {
  const voice = workspaceFile('cue-grid', 'voice.srt');
  await writeFile(voice.fsPath, TALK);
  await copyFile(testModel('audio/jfk.wav'), path.join(folder().fsPath, 'voice.wav'));
  const grid = await vscode.commands.executeCommand<CueGrid>('speechStudio.openCueGrid', voice);
  assert.ok(grid);
  assert.equal(path.basename(grid.media?.fsPath ?? ''), 'voice.wav');
  await ui({ action: 'waitFor', frames: webview, selector: 'body[data-media-kind="audio"] #wave' });
  const shown = await grid.showAt(4.5);
  assert.equal(shown.cue, 3);
  assert.match(shown.text, /^what your country/);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}, 60_000);
