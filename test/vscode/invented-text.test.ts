import assert from 'node:assert/strict';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import type { InventedTextCheck } from '../../src/editor/subtitles/invented-text';
import { INVENTED_TEXT_SOURCE } from '../../src/editor/subtitles/invented-text-diagnostics';
import type { RetranscribeResult } from '../../src/editor/subtitles/retranscribe-cues';
import type { SpeechRegionsResult } from '../../src/engine-api/protocol';
import { checkInventedText } from '../../src/subtitles/invented-text';
import { test } from './harness';
import { setting, testModel, updateSetting, waitFor, workspaceFile } from './helpers';

/** jfk.wav's words, with what whisper invents over silence, loops and a cue faster than speech. */
const TALK = [
  '1',
  '00:00:00,320 --> 00:00:02,270',
  'And so, my fellow Americans,',
  '',
  '2',
  '00:00:03,270 --> 00:00:04,410',
  'Thanks for watching!',
  '',
  '3',
  '00:00:05,380 --> 00:00:07,680',
  'ask not ask not ask not ask not',
  '',
  '4',
  '00:00:08,160 --> 00:00:08,500',
  'ask what you can do for your country, my fellow Americans',
  '',
  '5',
  '00:00:10,700 --> 00:00:11,000',
  'Thank you.',
  '',
].join('\n');

const vadDir = (): string => path.join(setting<string>('dataDirectory'), 'models', 'vad');
const flagged = (uri: vscode.Uri): string[] =>
  vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.source === INVENTED_TEXT_SOURCE)
    .sort((a, b) => a.range.start.line - b.range.start.line)
    .map((d) => `${d.range.start.line + 1}:${d.code as string}`);

test('Cues a recognizer may have invented are pointed at, text over silence once the speech is found, with fixes that remove or re-transcribe the cue', async () => {
  const folder = workspaceFile('invented');
  await mkdir(folder.fsPath, { recursive: true });
  await copyFile(testModel('audio/jfk.wav'), path.join(folder.fsPath, 'jfk.wav'));
  const srt = vscode.Uri.joinPath(folder, 'jfk.srt');
  await writeFile(srt.fsPath, TALK);
  await mkdir(vadDir(), { recursive: true });
  await copyFile(testModel('vad/ggml-silero-v6.2.0.bin'), path.join(vadDir(), 'ggml-silero-v6.2.0.bin'));
  await updateSetting('subtitles.check', true);
  try {
    const editor = await vscode.window.showTextDocument(srt);
    // The stock phrase (cue 2), the loop (cue 3) and the speed (cue 4), each on its timing line.
    const typed = ['6:stock-phrase', '10:repetition', '14:too-fast'];
    await waitFor(`the invented-text hints ${JSON.stringify(typed)}`, () =>
      JSON.stringify(flagged(srt)) === JSON.stringify(typed) ? true : undefined,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; shown: ${JSON.stringify(flagged(srt))}`);
    });

    const check = await vscode.commands.executeCommand<InventedTextCheck | undefined>('speechStudio.checkInventedText');
    assert.ok(check, 'the command found the speech');
    assert.equal(path.basename(check.media.fsPath), 'jfk.wav');
    // The speech as the engine found it (its cache), and what the flags make of it: cue 5 is over silence.
    const cacheDir = path.join(setting<string>('dataDirectory'), 'cache', 'speech-regions');
    const [entry] = (await readdir(cacheDir)).filter((name) => name.endsWith('.json'));
    const { regions } = (
      JSON.parse(await readFile(path.join(cacheDir, entry), 'utf8')) as { result: SpeechRegionsResult }
    ).result;
    const expected = checkInventedText(TALK, 'srt', regions);
    assert.deepEqual(check.problems, expected);
    assert.ok(
      expected.some((problem) => problem.cue === 5 && problem.flag === 'no-speech'),
      `cue 5 is after the last word: ${JSON.stringify(regions)}`,
    );
    await waitFor('the no-speech hint', () => (flagged(srt).includes('18:no-speech') ? true : undefined));

    // Cue 2's fixes: remove it (one undoable edit), or re-transcribe it.
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      srt,
      new vscode.Range(5, 0, 5, 5),
    );
    // The command hands back the actions without their diagnostics: tell them by title.
    const titles = actions
      .map((action) => action.title)
      .filter((title) => /^(Remove|Re-transcribe) cue \d+$/.test(title));
    assert.deepEqual(titles, ['Remove cue 2', 'Re-transcribe cue 2']);
    const remove = actions.find((action) => action.title === 'Remove cue 2');
    assert.ok(remove?.edit && (await vscode.workspace.applyEdit(remove.edit)));
    assert.doesNotMatch(editor.document.getText(), /Thanks for watching/);
    assert.match(editor.document.getText(), /Americans,\n\n3\n00:00:05,380/);
    await vscode.commands.executeCommand('undo');
    await waitFor('undo to bring cue 2 back', () => (editor.document.getText() === TALK ? true : undefined));

    const retranscribe = actions.find((action) => action.title === 'Re-transcribe cue 2');
    assert.ok(retranscribe?.command);
    const result = await vscode.commands.executeCommand<RetranscribeResult | undefined>(
      retranscribe.command.command,
      ...(retranscribe.command.arguments ?? []),
    );
    assert.ok(result, 're-transcribed');
    assert.deepEqual(
      result.spans.map((span) => span.cues),
      [[2]],
    );
    assert.equal(result.jobs[0].status, 'succeeded', result.jobs[0].error ?? '');
    if (result.applied) await vscode.commands.executeCommand('undo');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  } finally {
    await updateSetting('subtitles.check', false);
    await rm(vadDir(), { recursive: true, force: true });
    await rm(folder.fsPath, { recursive: true, force: true });
  }
}, 180_000);
