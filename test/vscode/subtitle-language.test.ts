import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import { SUBTITLE_CHECK_SOURCE } from '../../src/editor/subtitles/diagnostics';
import { test } from './harness';
import { screenshot, ui, updateSetting, waitFor, workspaceFile } from './helpers';

/** Token classes the editor drew on the visible lines: plain text alone is `mtk1`. */
async function coloredTokens(): Promise<number> {
  return Number(
    (await ui({ action: 'count', selector: '.monaco-editor .view-line span[class^="mtk"]:not(.mtk1)' })).count,
  );
}

test('.srt and .vtt open in their own language modes, highlighted, and the subtitle check still runs', async () => {
  const srt = await vscode.window.showTextDocument(workspaceFile('subtitles', 'scene.srt'));
  assert.equal(srt.document.languageId, 'srt');
  await ui({ action: 'waitFor', selector: '.monaco-editor .view-line span[class^="mtk"]:not(.mtk1)' });
  assert.ok((await coloredTokens()) > 0, 'the cue numbers and timings are coloured');
  await screenshot('srt-highlighting');

  const vttFile = path.join(path.dirname(workspaceFile('subtitles', 'scene.srt').fsPath), 'language-mode.vtt');
  await writeFile(
    vttFile,
    'WEBVTT\n\nNOTE a comment\n\n1\n00:00:01.000 --> 00:00:01.400 align:start\nA cue far too long to read in such a short time\n',
  );
  try {
    await updateSetting('subtitles.check', true);
    const vtt = await vscode.window.showTextDocument(vscode.Uri.file(vttFile));
    assert.equal(vtt.document.languageId, 'vtt');
    await ui({ action: 'waitFor', selector: '.monaco-editor .view-line span[class^="mtk"]:not(.mtk1)' });
    const problems = await waitFor('the subtitle check on a vtt document', () => {
      const found = vscode.languages.getDiagnostics(vtt.document.uri).filter((d) => d.source === SUBTITLE_CHECK_SOURCE);
      return found.length > 0 ? found : undefined;
    });
    assert.ok(
      problems.some((d) => d.code === 'reading-speed'),
      JSON.stringify(problems.map((d) => d.code)),
    );
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      vtt.document.uri,
    );
    assert.ok(lenses.length > 0, 'the ▶ Play lens is offered on the vtt language mode');
  } finally {
    await updateSetting('subtitles.check', false);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(vttFile, { force: true });
  }
});
