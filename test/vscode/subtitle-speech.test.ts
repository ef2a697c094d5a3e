import assert from 'node:assert/strict';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import type { RetranscribeResult } from '../../src/editor/subtitles/retranscribe-cues';
import type { SnapToSpeechResult } from '../../src/editor/subtitles/snap-to-speech';
import type { SpeechRegionsResult } from '../../src/engine-api/protocol';
import { applyEdits } from '../../src/subtitles/edits';
import { replaceCueTexts } from '../../src/subtitles/retranscribe';
import { scanSubtitles } from '../../src/subtitles/scan';
import { DEFAULT_SUBTITLE_STYLE } from '../../src/contract/subtitle-style';
import { teardown, test } from './harness';
import { clearNotifications, setting, testModel, ui, waitFor, workspaceFile } from './helpers';

/** jfk.wav's speech as Silero VAD finds it, each cue 0.3 s late: what a subtitle made for another cut looks like. */
const SHIFTED = [
  '1',
  '00:00:00,620 --> 00:00:02,570',
  'And so, my fellow Americans,',
  '',
  '2',
  '00:00:03,570 --> 00:00:04,710',
  'ask not',
  '',
  '3',
  '00:00:05,680 --> 00:00:07,980',
  'what your country can do for you,',
  '',
  '4',
  '00:00:08,460 --> 00:00:10,920',
  'ask what you can do for your country.',
  '',
].join('\r\n');
/** Where speech starts and ends in jfk.wav, measured by ear and waveform: the first word, the last word. */
const JFK_SPEECH = { start: 0.3, end: 10.6 };

const vadDir = (): string => path.join(setting<string>('dataDirectory'), 'models', 'vad');
const cueTimes = (text: string): Array<[number, number]> =>
  scanSubtitles(text, 'srt').cues.map((cue) => [cue.start, cue.end]);

async function openShifted(): Promise<vscode.TextEditor> {
  const folder = workspaceFile('speech');
  await mkdir(folder.fsPath, { recursive: true });
  await copyFile(testModel('audio/jfk.wav'), path.join(folder.fsPath, 'jfk.wav'));
  const srt = vscode.Uri.joinPath(folder, 'jfk.srt');
  await writeFile(srt.fsPath, SHIFTED);
  const editor = await vscode.window.showTextDocument(srt);
  if (editor.document.isDirty) await vscode.commands.executeCommand('workbench.action.files.revert');
  assert.equal(editor.document.getText(), SHIFTED);
  return editor;
}

async function undoUntil(editor: vscode.TextEditor, text: string): Promise<void> {
  await vscode.window.showTextDocument(editor.document);
  await vscode.commands.executeCommand('undo');
  await waitFor('undo to restore the text', () => editor.document.getText() === text || undefined);
}

teardown(async () => {
  await rm(vadDir(), { recursive: true, force: true });
});

test('Snap Subtitle Timing to Speech without the VAD model says so in one sentence and offers to install it', async () => {
  await rm(vadDir(), { recursive: true, force: true });
  const editor = await openShifted();
  await clearNotifications();
  const running = Promise.resolve(
    vscode.commands.executeCommand<SnapToSpeechResult | undefined>('speechStudio.snapSubtitlesToSpeech'),
  );
  await ui({
    action: 'waitFor',
    selector:
      '.notifications-toasts .notification-list-item:has-text("needs the Silero voice activity detection model, which is not installed")',
  });
  await ui({
    action: 'waitFor',
    selector: '.notifications-toasts .notification-list-item .monaco-button:has-text("Install VAD Model")',
  });
  await clearNotifications();
  assert.equal(await running, undefined, 'dismissed: nothing is snapped');
  assert.equal(editor.document.getText(), SHIFTED);
});

test('Snap Subtitle Timing to Speech moves cues shifted by 0.3 s back within 100 ms of the VAD boundaries, undoably', async () => {
  await mkdir(vadDir(), { recursive: true });
  await copyFile(testModel('vad/ggml-silero-v6.2.0.bin'), path.join(vadDir(), 'ggml-silero-v6.2.0.bin'));
  const editor = await openShifted();
  const result = await vscode.commands.executeCommand<SnapToSpeechResult | undefined>(
    'speechStudio.snapSubtitlesToSpeech',
  );
  assert.ok(result, 'the command snapped');
  assert.equal(path.basename(result.media.fsPath), 'jfk.wav', 'the media beside the subtitles');
  assert.equal(result.applied, true);
  assert.equal(result.total, 4);
  assert.equal(result.moved, 4, JSON.stringify(result));
  assert.ok(Math.abs(result.meanShiftMs - 300) <= 100 && result.maxShiftMs <= 400, JSON.stringify(result));
  await ui({
    action: 'waitFor',
    selector: `.notifications-toasts .notification-list-item:has-text("Moved 4 of 4 cues (mean ${result.meanShiftMs} ms, max ${result.maxShiftMs} ms)")`,
  });

  // The VAD boundaries as the engine task found them (its cache in the data directory).
  const cacheDir = path.join(setting<string>('dataDirectory'), 'cache', 'speech-regions');
  const [entry] = (await readdir(cacheDir)).filter((name) => name.endsWith('.json'));
  const { regions } = (
    JSON.parse(await readFile(path.join(cacheDir, entry), 'utf8')) as { result: SpeechRegionsResult }
  ).result;
  const snapped = cueTimes(editor.document.getText());
  const near = (value: number, edges: number[]): boolean => edges.some((edge) => Math.abs(edge - value) <= 0.1);
  for (const [start, end] of snapped) {
    assert.ok(
      near(
        start,
        regions.map((r) => r.start),
      ),
      `start ${start} is on a speech onset: ${JSON.stringify(regions)}`,
    );
    assert.ok(
      near(
        end,
        regions.map((r) => r.end),
      ),
      `end ${end} is on a speech offset: ${JSON.stringify(regions)}`,
    );
  }
  assert.ok(
    Math.abs(snapped[0][0] - JFK_SPEECH.start) <= 0.1 && Math.abs(snapped[3][1] - JFK_SPEECH.end) <= 0.1,
    JSON.stringify(snapped),
  );
  assert.equal(
    editor.document.getText().replace(/\d\d:\d\d:\d\d,\d{3}/g, 'T'),
    SHIFTED.replace(/\d\d:\d\d:\d\d,\d{3}/g, 'T'),
    'only the times changed; CRLF kept',
  );

  // Again: already on speech, nothing moves, and the speech comes from the cache.
  const again = await vscode.commands.executeCommand<SnapToSpeechResult | undefined>(
    'speechStudio.snapSubtitlesToSpeech',
  );
  assert.equal(again?.moved, 0);
  await undoUntil(editor, SHIFTED);
}, 120_000);

test("Re-transcribe Cue(s) replaces the selected cue's text with what the engine recognized in its span, undoably", async () => {
  const editor = await openShifted();
  // The cursor in cue 1's text; the synthetic whisper model's words mean nothing, so the test compares
  // against what the engine returned for the crop.
  editor.selection = new vscode.Selection(2, 3, 2, 3);
  const result = await vscode.commands.executeCommand<RetranscribeResult | undefined>('speechStudio.retranscribeCues', {
    language: 'en',
  });
  assert.ok(result, 'the command ran');
  assert.equal(result.jobs.length, 1);
  assert.equal(result.jobs[0].status, 'succeeded', result.jobs[0].error ?? '');
  assert.deepEqual(
    result.spans.map((span) => span.cues),
    [[1]],
  );
  assert.ok(
    result.spans[0].cropStartSeconds >= 0.3 && result.spans[0].cropEndSeconds <= 2.9,
    JSON.stringify(result.spans),
  );
  assert.ok(result.words[0].length > 0, 'the engine recognized something in the crop');
  const expected = applyEdits(
    SHIFTED,
    replaceCueTexts(SHIFTED, 'srt', DEFAULT_SUBTITLE_STYLE, result.spans[0], result.words[0]).edits,
  );
  assert.notEqual(expected, SHIFTED);
  assert.equal(editor.document.getText(), expected);
  assert.deepEqual(result.replaced, [1]);
  const cue1 = scanSubtitles(editor.document.getText(), 'srt').cues[0];
  assert.equal(cue1.lines.join(' '), result.words[0].map((word) => word.text.trim()).join(' '));
  assert.deepEqual(cueTimes(editor.document.getText()), cueTimes(SHIFTED), 'the times stay');
  await undoUntil(editor, SHIFTED);
}, 120_000);

test('Re-transcribe Cue(s) runs one cropped job per run of selected cues and replaces them all in one undoable edit', async () => {
  const editor = await openShifted();
  // Cues 1 and 2 (one run), and cue 4: two spans, two jobs.
  editor.selections = [new vscode.Selection(1, 0, 5, 2), new vscode.Selection(14, 4, 14, 4)];
  const result = await vscode.commands.executeCommand<RetranscribeResult | undefined>('speechStudio.retranscribeCues', {
    language: 'en',
  });
  assert.ok(result, 'the command ran');
  assert.deepEqual(
    result.spans.map((span) => span.cues),
    [[1, 2], [4]],
  );
  assert.deepEqual(
    result.jobs.map((job) => job.status),
    ['succeeded', 'succeeded'],
  );
  assert.ok(
    result.spans[1].cropStartSeconds >= 7.98 && result.spans[1].cropEndSeconds <= 11.2,
    JSON.stringify(result.spans),
  );
  const edits = result.spans.flatMap(
    (span, i) => replaceCueTexts(SHIFTED, 'srt', DEFAULT_SUBTITLE_STYLE, span, result.words[i]).edits,
  );
  const expected = applyEdits(SHIFTED, edits);
  assert.notEqual(expected, SHIFTED);
  assert.equal(editor.document.getText(), expected);
  assert.equal(
    scanSubtitles(expected, 'srt').cues[2].lines.join(' '),
    'what your country can do for you,',
    'cue 3 was not asked for',
  );
  await undoUntil(editor, SHIFTED);
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
}, 120_000);
