import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import { SHOT_CHANGE_SOURCE } from '../../src/editor/subtitles/shot-change-diagnostics';
import type { ShotChangeCheck } from '../../src/editor/subtitles/shot-changes';
import type { Timeline } from '../../src/editor/subtitles/timeline-view';
import { CUT_SECONDS, makeShotVideo, SHOT_VIDEO_FPS } from '../helpers/shot-video';
import { test } from './harness';
import { clearNotifications, closePanelViews, updateSetting, waitFor, workspaceFile } from './helpers';

/**
 * Cuts at 2.000, 3.500 and 4.500 s (24 fps). Cue 1 is far from any; cue 2 starts 5 frames after the first and
 * ends 2 frames before the second (as Netflix times an out-time); cue 3 starts 2 frames after the third.
 */
const CUES = [
  '1',
  '00:00:00,200 --> 00:00:01,000',
  'Far from any cut.',
  '',
  '2',
  '00:00:02,208 --> 00:00:03,417',
  'Five frames late.',
  '',
  '3',
  '00:00:04,583 --> 00:00:06,000',
  'Two frames late.',
  '',
].join('\n');

const shown = (uri: vscode.Uri): string[] =>
  vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.source === SHOT_CHANGE_SOURCE)
    .sort((a, b) => a.range.start.line - b.range.start.line)
    .map((d) => `${d.range.start.line + 1}:${d.code as string}`);

test('Shot changes of the video are found, marked on the timeline, and a cue starting near one is pointed at and snaps to it', async () => {
  const folder = workspaceFile('shots');
  await mkdir(folder.fsPath, { recursive: true });
  await makeShotVideo(path.join(folder.fsPath, 'cuts.mp4'));
  const srt = vscode.Uri.joinPath(folder, 'cuts.srt');
  await writeFile(srt.fsPath, CUES);
  await updateSetting('subtitles.check', true);
  try {
    const editor = await vscode.window.showTextDocument(srt);
    const check = await vscode.commands.executeCommand<ShotChangeCheck | undefined>('speechStudio.checkShotChanges');
    assert.ok(check, 'the command found the shot changes');
    assert.equal(path.basename(check.media.fsPath), 'cuts.mp4');
    assert.equal(check.framesPerSecond, SHOT_VIDEO_FPS);
    assert.equal(check.changes.length, CUT_SECONDS.length, JSON.stringify(check.changes));
    check.changes.forEach((change, i) =>
      assert.ok(Math.abs(change - CUT_SECONDS[i]) <= 1 / SHOT_VIDEO_FPS, `cut ${i + 1} at ${change} s`),
    );
    assert.deepEqual(
      check.problems.map((p) => `${p.cue}:${p.edge}`),
      ['2:start', '3:start'],
    );

    // Each on its cue's timing line.
    const expected = ['6:shot-change-start', '10:shot-change-start'];
    await waitFor(`the shot-change diagnostics ${JSON.stringify(expected)}`, () =>
      JSON.stringify(shown(srt)) === JSON.stringify(expected) ? true : undefined,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; shown: ${JSON.stringify(shown(srt))}`);
    });

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      srt,
      new vscode.Range(5, 0, 5, 1),
      vscode.CodeActionKind.QuickFix.value,
    );
    const snap = actions.find((action) => action.title === 'Start cue 2 on the shot change at 2.000 s');
    assert.ok(snap?.edit, `offered: ${JSON.stringify(actions.map((action) => action.title))}`);
    assert.ok(await vscode.workspace.applyEdit(snap.edit));
    assert.equal(
      editor.document.lineAt(5).text,
      '00:00:02,000 --> 00:00:03,417',
      'the start is on the cut, the end as it was',
    );
    await waitFor('cue 2 no longer pointed at', () =>
      JSON.stringify(shown(srt)) === JSON.stringify(['10:shot-change-start']) ? true : undefined,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; shown: ${JSON.stringify(shown(srt))}`);
    });

    const timeline = await vscode.commands.executeCommand<Timeline>('speechStudio.showSubtitleTimeline', srt);
    assert.ok(timeline, 'the timeline opened');
    assert.equal(await timeline.shotsShown(), CUT_SECONDS.length, 'a mark for each shot change');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await closePanelViews();
    await clearNotifications();
  } finally {
    await updateSetting('subtitles.check', false);
    await rm(folder.fsPath, { recursive: true, force: true });
  }
}, 120_000);
