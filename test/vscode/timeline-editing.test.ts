// Timeline editing in the real workbench: a cue's edge dragged with the mouse, and a cue moved, are each one
// document edit that one undo takes back; start at the playhead and split at the playhead; the ruler; zoom
// keeping the playhead in view.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import type { Timeline } from '../../src/editor/subtitles/timeline-view';
import { scanSubtitles } from '../../src/subtitles/scan';
import { teardown, test } from './harness';
import { closePanelViews, screenshot, testModel, ui, waitFor, workspaceFile } from './helpers';

// talk.srt beside talk.wav (jfk.wav, 11 s).
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
const folder = (): vscode.Uri => workspaceFile('timeline-editing');
const talk = (): vscode.Uri => workspaceFile('timeline-editing', 'talk.srt');
const cues = (editor: vscode.TextEditor): { start: number; end: number; lines: string[] }[] =>
  scanSubtitles(editor.document.getText(), 'srt').cues;

teardown(async () => {
  await rm(folder().fsPath, { recursive: true, force: true });
});

async function undoneTo(editor: vscode.TextEditor, expected: string): Promise<void> {
  await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
  await vscode.commands.executeCommand('undo');
  assert.equal(editor.document.getText(), expected, 'one undo takes the whole edit back');
}

test("dragging a cue's end, and moving a cue, are each one document edit that one undo reverts", async () => {
  await mkdir(folder().fsPath, { recursive: true });
  await writeFile(talk().fsPath, TALK);
  await copyFile(testModel('audio/jfk.wav'), path.join(folder().fsPath, 'talk.wav'));
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const editor = await vscode.window.showTextDocument(talk(), { viewColumn: vscode.ViewColumn.One });
  const timeline = await vscode.commands.executeCommand<Timeline>('speechStudio.showSubtitleTimeline');
  assert.ok(timeline);
  const { pixelsPerSecond, blocks } = await timeline.rendered();
  assert.equal(blocks, 4);
  const tolerance = 2 / pixelsPerSecond; // the mouse moves in whole pixels

  let edited = timeline.edited();
  await ui({
    action: 'drag',
    frames: webview,
    selector: '.cue[data-index="2"]',
    from: 'right',
    dx: Math.round(0.2 * pixelsPerSecond),
  });
  assert.deepEqual(await edited, { applied: true });
  const [, second] = cues(editor);
  assert.equal(second.start, 2.5, 'the start stays');
  assert.ok(Math.abs(second.end - 3.9) <= tolerance, `the end moved from 3.7 s to ${second.end} s`);
  assert.equal(
    editor.document.getText(),
    TALK.replace('00:00:03,700', editor.document.lineAt(5).text.slice(17)),
    'only the end stamp changed',
  );
  await undoneTo(editor, TALK);

  edited = timeline.edited();
  await ui({
    action: 'drag',
    frames: webview,
    selector: '.cue[data-index="4"]',
    dx: -Math.round(0.3 * pixelsPerSecond),
  });
  assert.deepEqual(await edited, { applied: true });
  const fourth = cues(editor)[3];
  assert.ok(Math.abs(fourth.start - 7.2) <= tolerance, `moved to start at ${fourth.start} s`);
  assert.ok(Math.abs(fourth.end - fourth.start - 3) < 0.0015, `and it still lasts 3 s: ${fourth.start}–${fourth.end}`);
  await undoneTo(editor, TALK);
}, 90_000);

test('start at the playhead and split at the playhead edit the document; the ruler labels the seconds; zoom keeps the playhead in view', async () => {
  const editor = await vscode.window.showTextDocument(talk(), { viewColumn: vscode.ViewColumn.One });
  const timeline = await vscode.commands.executeCommand<Timeline>('speechStudio.showSubtitleTimeline');
  assert.ok(timeline);
  const { pixelsPerSecond } = await timeline.rendered();
  const ticks = (await ui({ action: 'texts', frames: webview, selector: '#ruler .tick' })).texts as string[];
  // Ticks at a step that keeps them apart (1, 2, 5 … s at this zoom), labelled minutes:seconds from 0:00.
  const seconds = ticks.map((tick) => Number(tick.split(':')[0]) * 60 + Number(tick.split(':')[1]));
  assert.equal(ticks[0], '0:00', `the ruler: ${ticks.join(' ')}`);
  assert.ok(ticks.length >= 3 && ticks.every((tick) => /^\d+:\d\d$/.test(tick)), `the ruler: ${ticks.join(' ')}`);
  assert.ok(
    seconds.every((t, i) => i === 0 || t - seconds[i - 1] === seconds[1]),
    `evenly spaced: ${ticks.join(' ')}`,
  );

  // The cursor in cue 2 makes it the current cue; the playhead at 2.4 s; "[ Start at Playhead".
  const highlighted = timeline.highlighted();
  editor.selection = new vscode.Selection(6, 0, 6, 0);
  assert.equal(await highlighted, 2);
  await timeline.movePlayhead(2.4);
  let edited = timeline.edited();
  await ui({ action: 'click', frames: webview, selector: '#set-start' });
  assert.deepEqual(await edited, { applied: true });
  assert.equal(editor.document.lineAt(5).text, '00:00:02,400 --> 00:00:03,700');
  await undoneTo(editor, TALK);

  // The playhead at 5.5 s, inside cue 3: "Split at Playhead" gives two cues, the first ending there.
  await timeline.movePlayhead(5.5);
  edited = timeline.edited();
  await ui({ action: 'click', frames: webview, selector: '#split' });
  assert.deepEqual(await edited, { applied: true });
  const split = cues(editor);
  assert.equal(split.length, 5);
  assert.deepEqual([split[2].start, split[2].end, split[3].start, split[3].end], [4, 5.5, 5.58, 7]);
  assert.equal([...split[2].lines, ...split[3].lines].join(' '), 'what your country can do for you,');
  assert.equal(editor.document.lineAt(16).text, '5', 'the cues after it are renumbered');
  await waitFor('five blocks', async () =>
    (await ui({ action: 'count', frames: webview, selector: '.cue' })).count === 5 ? true : undefined,
  );
  await screenshot('timeline-editing');
  await undoneTo(editor, TALK);

  // A split where no cue is refused with a sentence, and nothing changes.
  await timeline.movePlayhead(3.85);
  edited = timeline.edited();
  await ui({ action: 'click', frames: webview, selector: '#split' });
  const refused = await edited;
  assert.equal(refused.applied, false);
  assert.match(refused.message ?? '', /not inside cue 2/);
  assert.equal(editor.document.getText(), TALK);

  // Zoomed in far, the playhead (at 9 s) is still in view.
  await timeline.movePlayhead(9);
  for (let i = 0; i < 4; i++) await ui({ action: 'click', frames: webview, selector: '#zoom-in' });
  const zoomed = await waitFor('the zoom', async () => {
    const { value: left } = await ui({
      action: 'property',
      frames: webview,
      selector: '#playhead',
      name: 'offsetLeft',
    });
    const { value: scroll } = await ui({
      action: 'property',
      frames: webview,
      selector: '#scroller',
      name: 'scrollLeft',
    });
    const { value: width } = await ui({
      action: 'property',
      frames: webview,
      selector: '#scroller',
      name: 'clientWidth',
    });
    return typeof left === 'number' && left > 9 * pixelsPerSecond * 4
      ? { left, scroll: scroll as number, width: width as number }
      : undefined;
  });
  assert.ok(
    zoomed.left >= zoomed.scroll && zoomed.left <= zoomed.scroll + zoomed.width,
    `the playhead at ${zoomed.left} px, the view ${zoomed.scroll}–${zoomed.scroll + zoomed.width} px`,
  );
  await vscode.commands.executeCommand('notifications.clearAll');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await closePanelViews();
}, 90_000);

test("a quiet recording's waveform is drawn to the full height, scaled to its own peak, not as a flat line", async () => {
  await mkdir(folder().fsPath, { recursive: true });
  const quiet = workspaceFile('timeline-editing', 'quiet.srt');
  await writeFile(quiet.fsPath, TALK);
  // jfk.wav at -60 dB: its loudest sample about 0.1 % of full scale.
  await promisify(execFile)('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    testModel('audio/jfk.wav'),
    '-af',
    'volume=0.001',
    path.join(folder().fsPath, 'quiet.wav'),
  ]);
  await vscode.window.showTextDocument(quiet, { viewColumn: vscode.ViewColumn.One });
  const timeline = await vscode.commands.executeCommand<Timeline>('speechStudio.showSubtitleTimeline');
  assert.ok(timeline);
  const rendered = await timeline.rendered();
  assert.equal(rendered.waveform, 'ready');
  assert.ok(rendered.tallest > 0.95, `the tallest peak reaches ${rendered.tallest} of the height`);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await closePanelViews();
}, 90_000);
