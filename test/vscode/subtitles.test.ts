import assert from 'node:assert/strict';
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import type { NarrateSubtitlesResult } from '../../src/editor/commands/narrate-subtitles';
import { test } from './harness';
import { screenshot, ui, waitFor, workspaceFile } from './helpers';

test('Narrate Subtitle File writes the timed narration beside the SRT and lists overrun cues as problems', async () => {
  const subtitles = workspaceFile('subtitles', 'scene.srt');
  await vscode.window.showTextDocument(subtitles);
  const result = await vscode.commands.executeCommand<NarrateSubtitlesResult>(
    'speechStudio.narrateSubtitleFile',
    subtitles,
    { overwrite: true },
  );
  assert.ok(result, 'the command returns its job');
  assert.equal(result.job.status, 'succeeded', result.job.error ?? '');
  assert.equal(result.output?.fsPath, path.join(path.dirname(subtitles.fsPath), 'scene.narration.wav'));
  const wav = await readFile(result.output.fsPath);
  assert.equal(wav.subarray(0, 4).toString('latin1'), 'RIFF');
  assert.ok((wav.length - 44) / wav.readUInt32LE(28) >= 5, 'the narration lasts until the last cue ends');
  const problems = await waitFor('the fit report in Problems', () => {
    const found = vscode.languages.getDiagnostics(subtitles);
    return found.length > 0 ? found : undefined;
  });
  assert.equal(result.overruns, problems.length);
  assert.deepEqual(
    problems.map((p) => p.range.start.line),
    [5],
    "the warning sits on cue 2's timing line",
  );
  assert.match(problems[0].message, /^Cue 2: /);
  await vscode.commands.executeCommand('workbench.actions.view.problems');
  await ui({ action: 'waitFor', selector: '.markers-panel .monaco-list-row:has-text("Cue 2")' });
  await screenshot('subtitle-fit-problems');
  await vscode.commands.executeCommand('workbench.action.closePanel');
}, 90_000);

test('Narrate Subtitle File never writes over the recording its subtitles belong to', async () => {
  const folder = path.dirname(workspaceFile('subtitles', 'scene.srt').fsPath);
  const subtitles = vscode.Uri.file(path.join(folder, 'interview.srt'));
  const recording = path.join(folder, 'interview.wav');
  const made = [subtitles.fsPath, recording, path.join(folder, 'interview.narration.wav')];
  await copyFile(workspaceFile('subtitles', 'scene.srt').fsPath, subtitles.fsPath);
  await writeFile(recording, 'the interview recording');
  try {
    const result = await vscode.commands.executeCommand<NarrateSubtitlesResult>(
      'speechStudio.narrateSubtitleFile',
      subtitles,
      { overwrite: true },
    );
    assert.equal(result?.job.status, 'succeeded', result?.job.error ?? '');
    assert.equal(result?.output?.fsPath, path.join(folder, 'interview.narration.wav'));
    assert.equal(await readFile(recording, 'utf8'), 'the interview recording', 'the recording is untouched');
  } finally {
    for (const file of made) await rm(file, { force: true });
  }
}, 120_000);
