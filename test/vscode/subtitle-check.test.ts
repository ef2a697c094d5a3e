import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SUBTITLE_CHECK_SOURCE } from '../../src/editor/subtitles/diagnostics';
import { teardown, test } from './harness';
import { screenshot, ui, updateSetting, waitFor, workspaceFile } from './helpers';

// The suite's settings switch the check off so the narration test sees only its own problems; these tests
// switch it on and leave it off again.
const checkProblems = (uri: vscode.Uri): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(uri).filter((d) => d.source === SUBTITLE_CHECK_SOURCE);
const brief = (diagnostics: vscode.Diagnostic[]): string[] =>
  diagnostics
    .map((d) => `${d.range.start.line}:${d.code as string}`)
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b));
const same = (expected: string[]) => (uri: vscode.Uri) => {
  const found = brief(checkProblems(uri));
  return JSON.stringify(found) ===
    JSON.stringify([...expected].sort((a, b) => parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b)))
    ? found
    : undefined;
};

const ALL_PROBLEMS = [
  '5:too-short',
  '5:reading-speed',
  '5:gap-too-small',
  '9:reading-speed',
  '9:overlap',
  '10:line-too-long',
  '13:too-long',
  '14:line-too-long',
  '16:too-many-lines',
  '19:out-of-order',
  '23:parse',
  '27:parse',
];

teardown(async () => {
  await updateSetting('subtitles.style', undefined);
  await updateSetting('subtitles.check', false);
});

test('an SRT with a BOM and CRLF shows each style problem on its line in Problems', async () => {
  const uri = workspaceFile('subtitles', 'check.srt');
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document);
  assert.equal(document.eol, vscode.EndOfLine.CRLF);
  await updateSetting('subtitles.check', true);
  await waitFor('the subtitle problems', () => same(ALL_PROBLEMS)(uri));
  const problems = checkProblems(uri);
  assert.equal(
    problems.find((d) => d.code === 'parse' && d.range.start.line === 23)?.severity,
    vscode.DiagnosticSeverity.Error,
  );
  assert.match(
    problems.find((d) => d.code === 'reading-speed' && d.range.start.line === 5)?.message ?? '',
    /^Cue 2 reads at 50\.0 characters per second, faster than 17$/,
  );
  await vscode.commands.executeCommand('workbench.actions.view.problems');
  await ui({ action: 'waitFor', selector: '.markers-panel .monaco-list-row:has-text("reads at 50.0")' });
  await screenshot('subtitle-check-problems');
  await vscode.commands.executeCommand('workbench.action.closePanel');
}, 60_000);

test('the problems follow the text as it is edited, and the style setting as it changes', async () => {
  const uri = workspaceFile('subtitles', 'check.srt');
  const editor = await vscode.window.showTextDocument(uri);
  await waitFor('the subtitle problems', () => same(ALL_PROBLEMS)(uri));
  // Cue 2 gets time enough to be read and a gap before it: its three problems go.
  const fixed = await editor.edit((edit) =>
    edit.replace(editor.document.lineAt(5).range, '00:00:03,100 --> 00:00:04,900'),
  );
  assert.ok(fixed);
  const afterEdit = ALL_PROBLEMS.filter((p) => !p.startsWith('5:'));
  await waitFor('the problems after the edit', () => same(afterEdit)(uri));
  // A slower reading speed (BBC's preset, limited to 5 characters per second) finds more cues too fast.
  await updateSetting('subtitles.style', 'bbc');
  await updateSetting('subtitles.limits', { maxCharsPerSecond: 5 });
  const slower = [...afterEdit, '1:reading-speed', '5:reading-speed', '13:reading-speed', '19:reading-speed'];
  await waitFor('the problems under BBC at 5 characters per second', () => same(slower)(uri));
  await updateSetting('subtitles.limits', undefined);
  await updateSetting('subtitles.check', false);
  await waitFor('no subtitle problems once the check is off', () =>
    checkProblems(uri).length === 0 ? true : undefined,
  );
  await vscode.commands.executeCommand('workbench.action.files.revert');
}, 60_000);
