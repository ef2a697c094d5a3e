import assert from 'node:assert/strict';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import type { CuePlayback } from '../../src/editor/subtitles/cue-play';
import type { Timeline } from '../../src/editor/subtitles/timeline-view';
import { teardown, test } from './harness';
import { closePanelViews, playerShown, screenshot, testModel, ui, waitFor, workspaceFile } from './helpers';

// talk.srt beside talk.wav (jfk.wav, 11 s): "▶ Play" finds the media by its name.
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
  '00:00:04,000 --> 00:00:07,000',
  'what your country can do for you,',
  '',
  '4',
  '00:00:07,500 --> 00:00:10,500',
  'ask what you can do for your country.',
  '',
].join('\n');
const webview = ['iframe.webview.ready', 'iframe#active-frame'];
const folder = (): vscode.Uri => workspaceFile('cue-play');
const talk = (): vscode.Uri => workspaceFile('cue-play', 'talk.srt');

async function openTalk(): Promise<vscode.TextEditor> {
  const editor = await vscode.window.showTextDocument(talk(), { viewColumn: vscode.ViewColumn.One });
  if (editor.document.isDirty) await vscode.commands.executeCommand('workbench.action.files.revert');
  assert.equal(editor.document.getText(), TALK);
  return editor;
}

/** The Timeline view shows talk.srt's track (in the Speech Studio panel, beside the player). */
const timelineShown = (): Promise<unknown> => ui({ action: 'waitFor', frames: webview, selector: '#track' });

teardown(async () => {
  await rm(folder().fsPath, { recursive: true, force: true });
});

test('"▶ Play" above a cue plays exactly that span of the media, with the cue highlighted while it plays', async () => {
  await mkdir(folder().fsPath, { recursive: true });
  await writeFile(talk().fsPath, TALK);
  await copyFile(testModel('audio/jfk.wav'), path.join(folder().fsPath, 'talk.wav'));
  const editor = await openTalk();
  const lenses = await waitFor('the Play lenses', async () => {
    const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', talk(), 10);
    return found.length === 4 ? found : undefined;
  });
  assert.deepEqual(
    lenses.map((lens) => [lens.range.start.line, lens.command?.title]),
    [
      [1, '▶ Play'],
      [5, '▶ Play'],
      [9, '▶ Play'],
      [13, '▶ Play'],
    ],
  );
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
    'vscode.executeHoverProvider',
    talk(),
    new vscode.Position(5, 3),
  );
  const hoverText = hovers
    .flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value)))
    .join('\n');
  assert.match(hoverText, /\[▶ Play cue 2\]\(command:speechStudio\.playCue\?/);

  // Cue 1 starts, then cue 2 cuts it short: whoever waited for cue 1 to end hears that it stopped.
  const first = await vscode.commands.executeCommand<CuePlayback>(
    lenses[0].command!.command,
    ...(lenses[0].command!.arguments ?? []),
  );
  assert.equal(first?.report.state, 'playing', first?.report.error ?? '');
  assert.ok(Math.abs(first.report.start - 0.3) < 0.05, `cue 1 started at ${first.report.start} s`);
  const command = lenses[1].command!;
  const started = performance.now();
  const playback = await vscode.commands.executeCommand<CuePlayback>(command.command, ...(command.arguments ?? []));
  assert.ok(playback, 'the command returns what it started');
  assert.equal(playback.cue, 2);
  assert.equal(playback.media, path.join(folder().fsPath, 'talk.wav'));
  assert.equal(playback.report.state, 'playing', playback.report.error ?? '');
  assert.ok(
    Math.abs(playback.report.start - 2.5) < 0.05,
    `the player started at ${playback.report.start} s (cue 2 starts at 2.5 s)`,
  );
  assert.equal(playback.report.end, 3.7);
  assert.deepEqual(playback.lines, { first: 4, last: 6 }, "cue 2's number, timing and text are highlighted");
  assert.equal(editor.document.uri.toString(), talk().toString());
  assert.equal((await first.ended).state, 'paused', 'cue 1 was cut short');
  const ended = await playback.ended;
  const seconds = (performance.now() - started) / 1000;
  assert.equal(ended.state, 'ended');
  assert.equal(ended.position, 3.7, "the player stopped at the cue's end");
  assert.ok(seconds >= 1.1, `the 1.2 s span took ${seconds.toFixed(2)} s to play: it was played, not skipped`);
  await playerShown(); // the player is open, in the Speech Studio panel
}, 60_000);

test("Shift Subtitle Timing makes the cue at the cursor start at the player's playhead, as one undoable edit", async () => {
  const editor = await openTalk();
  editor.selection = new vscode.Selection(10, 2, 10, 2); // in cue 3's text; the playhead is at 3.7 s (cue 2's end)
  const shifting = Promise.resolve(vscode.commands.executeCommand<boolean>('speechStudio.shiftSubtitleTiming'));
  const row = (text: string): string => `.quick-input-widget .monaco-list-row:has-text("${text}")`;
  await ui({ action: 'waitFor', selector: row('Make cue 3 start at the playhead (00:00:03.700)') });
  await ui({ action: 'click', selector: row('Make cue 3 start at the playhead') });
  await ui({ action: 'waitFor', selector: row('From cue 3 on') });
  await ui({ action: 'click', selector: row('From cue 3 on') });
  assert.equal(await shifting, true);
  assert.equal(
    editor.document.getText(),
    TALK.replace('00:00:04,000 --> 00:00:07,000', '00:00:03,700 --> 00:00:06,700').replace(
      '00:00:07,500 --> 00:00:10,500',
      '00:00:07,200 --> 00:00:10,200',
    ),
  );
  await vscode.commands.executeCommand('undo');
  assert.equal(editor.document.getText(), TALK, 'one undo takes the whole shift back');
}, 60_000);

test('the subtitle timeline draws the waveform and the cues, follows the cursor, and plays a clicked cue', async () => {
  await vscode.commands.executeCommand('speechStudio.player.close'); // a fresh player: the clicked cue opens it again
  const editor = await openTalk();
  editor.selection = new vscode.Selection(2, 0, 2, 0); // in cue 1
  const timeline = await vscode.commands.executeCommand<Timeline>('speechStudio.showSubtitleTimeline');
  assert.ok(timeline, 'the command returns the timeline');
  const rendered = await timeline.rendered();
  assert.equal(rendered.waveform, 'ready');
  assert.equal(rendered.blocks, 4);
  assert.ok(Math.abs(rendered.buckets - 1100) <= 2, `100 buckets a second of 11 s: ${rendered.buckets}`);
  assert.equal(rendered.current, 1, 'the cue at the cursor is highlighted');
  assert.deepEqual(
    (await ui({ action: 'texts', frames: webview, selector: '.cue' })).texts,
    TALK.split('\n').filter((_, i) => i % 4 === 2),
  );

  const highlighted = timeline.highlighted();
  editor.selection = new vscode.Selection(10, 0, 10, 0);
  assert.equal(await highlighted, 3, 'the highlight follows the cursor');
  await ui({ action: 'waitFor', frames: webview, selector: '.cue.current[data-index="3"]' });

  const redrawn = timeline.rendered();
  await editor.edit((edit) =>
    edit.insert(new vscode.Position(editor.document.lineCount, 0), '\n5\n00:00:10,600 --> 00:00:11,000\nThe end.\n'),
  );
  assert.equal((await redrawn).blocks, 5, 'an edit redraws the blocks');
  const back = timeline.rendered();
  await vscode.commands.executeCommand('undo');
  assert.equal(editor.document.getText(), TALK);
  assert.equal((await back).blocks, 4, 'and so does its undo');

  const played = new Promise<CuePlayback>((resolve) => {
    const listener = timeline.onDidPlay((playback) => {
      listener.dispose();
      resolve(playback);
    });
  });
  await ui({ action: 'click', frames: webview, selector: '.cue[data-index="4"]' });
  const playback = await played;
  assert.equal(playback.cue, 4);
  assert.equal(playback.report.state, 'playing', playback.report.error ?? '');
  assert.ok(Math.abs(playback.report.start - 7.5) < 0.05, `started at ${playback.report.start} s`);
  const active = vscode.window.activeTextEditor;
  assert.equal(active?.document.uri.toString(), talk().toString());
  assert.equal(active.selection.active.line, 14, 'the clicked cue is revealed with the cursor on its text');
  assert.equal((await playback.ended).position, 10.5);
  // The playhead (a 2 px line) has followed the playback to the cue's end. (The player plays beside the
  // timeline in the Speech Studio panel: both show, and the document keeps its editor.)
  await timelineShown();
  await playerShown();
  await waitFor('the playhead at 10.5 s', async () => {
    const { value } = await ui({ action: 'property', frames: webview, selector: '#playhead', name: 'offsetLeft' });
    return typeof value === 'number' && Math.abs(value + 1 - 10.5 * rendered.pixelsPerSecond) < 2 ? true : undefined;
  });
  await screenshot('subtitle-timeline');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await closePanelViews();
}, 90_000);
