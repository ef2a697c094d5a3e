import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import type { NarrateSubtitlesResult } from '../../src/editor/commands/narrate-subtitles';
import { test } from './harness';
import { screenshot, ui, waitFor, workspaceFile } from './helpers';

test('Narrate Subtitle File writes the timed narration beside the SRT and lists overrun cues as problems', async () => {
  const subtitles = workspaceFile('subtitles', 'scene.srt');
  await vscode.window.showTextDocument(subtitles);
  const result = await vscode.commands.executeCommand<NarrateSubtitlesResult>('speechStudio.narrateSubtitleFile', subtitles, { overwrite: true });
  assert.ok(result, 'the command returns its job');
  assert.equal(result.job.status, 'succeeded', result.job.error ?? '');
  assert.equal(result.output?.fsPath, path.join(path.dirname(subtitles.fsPath), 'scene.wav'));
  const wav = await readFile(result.output!.fsPath);
  assert.equal(wav.subarray(0, 4).toString('latin1'), 'RIFF');
  assert.ok((wav.length - 44) / wav.readUInt32LE(28) >= 5, 'the narration lasts until the last cue ends');
  const problems = await waitFor('the fit report in Problems', () => {
    const found = vscode.languages.getDiagnostics(subtitles);
    return found.length > 0 ? found : undefined;
  });
  assert.equal(result.overruns, problems.length);
  assert.deepEqual(problems.map((p) => p.range.start.line), [5], 'the warning sits on cue 2\'s timing line');
  assert.match(problems[0].message, /^Cue 2: /);
  await vscode.commands.executeCommand('workbench.actions.view.problems');
  await ui({ action: 'waitFor', selector: '.markers-panel .monaco-list-row:has-text("Cue 2")' });
  await screenshot('subtitle-fit-problems');
  await vscode.commands.executeCommand('workbench.action.closePanel');
}, 90_000);
