import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import type { AlignScriptResult, RetimeResult } from '../../src/editor/subtitles/align-commands';
import { scanSubtitles } from '../../src/subtitles/scan';
import { driftedCues, styledSubtitles, withoutTimes } from '../helpers/styled-subtitles';
import { test } from './harness';
import { clearNotifications, testModel, workspaceFile } from './helpers';

const DEV = (name: string): string => testModel(`audio/align-dev/${name}`);
/** Real speech: an engine's alignment of 118 s under a loaded machine takes a while. */
const ALIGN_TIMEOUT_MS = 600_000;

async function folderWith(...names: string[]): Promise<vscode.Uri> {
  const folder = workspaceFile('align');
  await mkdir(folder.fsPath, { recursive: true });
  for (const name of names) await copyFile(DEV(name), path.join(folder.fsPath, name));
  return folder;
}

test(
  'Align Script to Media writes name.srt beside the script, every line of it timed in order',
  async () => {
    const folder = await folderWith('dev-a.wav', 'dev-a.txt');
    await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, 'dev-a.txt'));
    const result = await vscode.commands.executeCommand<AlignScriptResult | undefined>(
      'speechStudio.alignScriptToMedia',
      { media: path.join(folder.fsPath, 'dev-a.wav'), language: 'en' },
    );
    assert.ok(result, 'the command aligned');
    assert.equal(result.subtitles.fsPath, path.join(folder.fsPath, 'dev-a.srt'));
    assert.equal(result.matched, 40);
    assert.deepEqual(result.unmatched, []);
    const cues = scanSubtitles(await readFile(result.subtitles.fsPath, 'utf8'), 'srt').cues;
    cues.forEach((cue, i) => {
      assert.ok(cue.start < cue.end && cue.end <= 118.05, `cue ${i + 1}`);
      if (i > 0) assert.ok(cue.start >= cues[i - 1].end, `cue ${i + 1} starts after cue ${i} ends`);
    });
    const words = (await readFile(DEV('dev-a.txt'), 'utf8')).split(/\s+/).filter(Boolean);
    assert.deepEqual(
      cues.flatMap((cue) => cue.lines.join(' ').split(/\s+/)),
      words,
    );
    await clearNotifications();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  },
  ALIGN_TIMEOUT_MS,
);

test(
  'Re-time Subtitles to Media moves the drifted cues onto the speech in one undoable edit, text untouched',
  async () => {
    const folder = await folderWith('dev-a.wav');
    const srt = vscode.Uri.joinPath(folder, 'dev-a.srt');
    await copyFile(DEV('dev-a-drifted.srt'), srt.fsPath);
    const editor = await vscode.window.showTextDocument(srt);
    if (editor.document.isDirty) await vscode.commands.executeCommand('workbench.action.files.revert');
    const drifted = editor.document.getText();
    const result = await vscode.commands.executeCommand<RetimeResult | undefined>(
      'speechStudio.retimeSubtitlesToMedia',
    );
    assert.ok(result, 'the command re-timed (the media beside the file was found)');
    assert.equal(result.applied, true);
    assert.equal(result.total, 40);
    assert.ok(result.moved >= 35, `moved ${result.moved}`);
    assert.ok(result.meanShiftMs > 0 && result.maxShiftMs >= result.meanShiftMs);
    const before = scanSubtitles(drifted, 'srt').cues;
    const after = scanSubtitles(editor.document.getText(), 'srt').cues;
    assert.deepEqual(
      after.map((cue) => cue.lines),
      before.map((cue) => cue.lines),
      "the cues' text is kept",
    );
    after.forEach((cue, i) => {
      assert.ok(cue.start < cue.end, `cue ${i + 1}`);
      if (i > 0) assert.ok(cue.start >= after[i - 1].end, `cue ${i + 1} in order`);
    });
    // Written as the times of the speech (the drift was 0.8 s and more), not as the drifted file's.
    const truth = (
      JSON.parse(await readFile(DEV('dev-a.truth.json'), 'utf8')) as { sentences: Array<{ start: number }> }
    ).sentences;
    const errors = after.map((cue, i) => Math.abs(cue.start - truth[i].start)).sort((a, b) => a - b);
    assert.ok(
      errors[Math.floor(errors.length / 2)] < 0.25,
      `median start error ${errors[Math.floor(errors.length / 2)]} s`,
    );
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), drifted, 'one undo restores the drifted file');
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await clearNotifications();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  },
  ALIGN_TIMEOUT_MS,
);

test(
  'Re-time Subtitles to Media on an ASS script rewrites only the times: styles, override tags and the Comment line stay',
  async () => {
    const folder = await folderWith('dev-a.wav');
    const ass = vscode.Uri.joinPath(folder, 'dev-a.ass');
    await writeFile(ass.fsPath, styledSubtitles('ass', driftedCues(DEV('dev-a-drifted.srt'))));
    const editor = await vscode.window.showTextDocument(ass);
    const drifted = editor.document.getText();
    const result = await vscode.commands.executeCommand<RetimeResult | undefined>(
      'speechStudio.retimeSubtitlesToMedia',
    );
    assert.ok(result, 'the command re-timed (the media beside the file was found)');
    assert.equal(result.applied, true);
    assert.equal(result.total, 40);
    assert.deepEqual(result.unmatched, []);
    assert.ok(result.moved >= 35, `moved ${result.moved}`);
    const retimed = editor.document.getText();
    assert.equal(withoutTimes('ass', retimed), withoutTimes('ass', drifted), 'everything but the times kept');
    const truth = (
      JSON.parse(await readFile(DEV('dev-a.truth.json'), 'utf8')) as { sentences: Array<{ start: number }> }
    ).sentences;
    const errors = scanSubtitles(retimed, 'ass')
      .cues.map((cue, i) => Math.abs(cue.start - truth[i].start))
      .sort((a, b) => a - b);
    assert.ok(errors[20] < 0.25, `median start error ${errors[20]} s`);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), drifted, 'one undo restores the drifted script');
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await clearNotifications();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  },
  ALIGN_TIMEOUT_MS,
);
