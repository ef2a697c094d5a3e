import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import type { TranscribeResult } from '../../src/editor/commands/transcribe';
import { test } from './harness';
import { setting, shared, testModel, ui, workspaceFile } from './helpers';

const SRT_CUE = /^\d+\n\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}\n.+/;

test('Transcribe Media File on the fixture WAV writes an SRT beside it and opens it', async () => {
  // The synthetic whisper model has random weights: its words mean nothing, so only the structure is checked.
  const models = path.join(setting<string>('dataDirectory'), 'models', 'whisper');
  await mkdir(models, { recursive: true });
  await copyFile(testModel('whisper/ggml-synthetic-random.bin'), path.join(models, 'ggml-synthetic-random.bin'));
  const media = workspaceFile('media', 'interview.wav');
  const result = await vscode.commands.executeCommand<TranscribeResult>('speechStudio.transcribeMediaFile', media, {
    format: 'srt',
    language: 'en',
    diarization: false,
    overwrite: true,
  });
  assert.ok(result, 'the command returns its job');
  assert.equal(result.job.status, 'succeeded', result.job.error ?? '');
  assert.equal(result.output?.fsPath, path.join(path.dirname(media.fsPath), 'interview.srt'));
  const srt = await readFile(result.output.fsPath, 'utf8');
  for (const cue of srt.split('\n\n').filter((block) => block.trim())) assert.match(cue, SRT_CUE);
  assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, result.output.fsPath, 'the SRT is open');
  shared.transcriptionJobId = result.job.id;
});

test('Transcribe Media File writes VTT and asks nothing when every option is given', async () => {
  const media = workspaceFile('media', 'interview.wav');
  const result = await vscode.commands.executeCommand<TranscribeResult>('speechStudio.transcribeMediaFile', media, {
    format: 'vtt',
    language: 'auto',
    diarization: false,
    overwrite: true,
    open: false,
  });
  assert.equal(result?.job.status, 'succeeded', result?.job.error ?? '');
  assert.ok((await readFile(result.output!.fsPath, 'utf8')).startsWith('WEBVTT'));
});

test('Transcribe Media File asks for the options once per workspace, then uses them without asking; Choose Options asks again; it never overwrites without asking', async () => {
  const media = workspaceFile('media', 'interview.wav');
  const row = (text: string) => `.quick-input-widget .monaco-list-row:has-text("${text}")`;
  const input = '.quick-input-widget input';
  const first = Promise.resolve(
    vscode.commands.executeCommand<TranscribeResult>('speechStudio.transcribeMediaFile', media),
  );
  await ui({ action: 'waitFor', selector: row('Plain text, one paragraph per segment') });
  await ui({ action: 'click', selector: row('TXT') });
  await ui({ action: 'waitFor', selector: row('Detect automatically') });
  await ui({ action: 'type', selector: input, text: 'English' });
  await ui({ action: 'click', selector: row('English') });
  await ui({ action: 'waitFor', selector: row('One speaker') });
  await ui({ action: 'click', selector: row('One speaker') });
  const written = await first;
  assert.equal(written?.job.status, 'succeeded', written?.job.error ?? '');
  assert.equal(path.basename(written.output!.fsPath), 'interview.txt');

  // Next time the workspace's answers are used without a question; the only one left is about the existing file.
  const second = Promise.resolve(
    vscode.commands.executeCommand<TranscribeResult>('speechStudio.transcribeMediaFile', media),
  );
  await ui({ action: 'waitFor', selector: '.quick-input-widget:has-text("interview.txt already exists")' });
  await ui({ action: 'click', selector: row('Keep Both') });
  const kept = await second;
  assert.equal(path.basename(kept.output!.fsPath), 'interview (2).txt');
  assert.equal(await readFile(written.output!.fsPath, 'utf8'), await readFile(kept.output!.fsPath, 'utf8'));

  // Choose Options asks again, the remembered answers first: Enter three times repeats them, then a new format.
  const third = Promise.resolve(
    vscode.commands.executeCommand<TranscribeResult>('speechStudio.transcribeMediaFileChooseOptions', media, {
      overwrite: true,
      open: false,
    }),
  );
  await ui({ action: 'waitFor', selector: `.quick-input-widget .monaco-list-row.focused:has-text("TXT")` });
  await ui({ action: 'click', selector: row('VTT') });
  for (const remembered of ['English', 'One speaker']) {
    await ui({ action: 'waitFor', selector: `.quick-input-widget .monaco-list-row.focused:has-text("${remembered}")` });
    await ui({ action: 'press', key: 'Enter' });
  }
  const changed = await third;
  assert.equal(path.basename(changed.output!.fsPath), 'interview.vtt');
  // ...and the new answer is what the plain command uses from now on, still without asking.
  const fourth = await vscode.commands.executeCommand<TranscribeResult>('speechStudio.transcribeMediaFile', media, {
    overwrite: true,
    open: false,
  });
  assert.equal(path.basename(fourth.output!.fsPath), 'interview.vtt');
}, 120_000);
