import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { test } from './harness';
import {
  clearNotifications,
  extensionApi,
  screenshot,
  setting,
  testModel,
  ui,
  waitFor,
  waitForNotification,
  workspaceFile,
} from './helpers';

const run = promisify(execFile);
const stepButton = (step: string) =>
  `button.getting-started-step[data-step-id="speech-studio.speech-studio#gettingStarted#${step}"]`;
const done = (step: string) => ui({ action: 'waitFor', selector: `${stepButton(step)}[aria-checked="true"]` }, 60_000);

// The first test of the suite: no job has run yet, so every step starts open and completes only when its
// real work is done.
test('the walkthrough starts with no step done and completes each step on the real event', async () => {
  const studio = await extensionApi();
  await vscode.commands.executeCommand('speechStudio.openWalkthrough');
  for (const step of ['hear', 'voice', 'sttModel', 'transcribe', 'subtitles', 'localApi']) {
    await ui({ action: 'waitFor', selector: `${stepButton(step)}[aria-checked="false"]` });
  }
  await screenshot('walkthrough');

  await vscode.commands.executeCommand('speechStudio.walkthrough.hearSample', { open: false });
  await done('hear');

  await vscode.commands.executeCommand('speechStudio.walkthrough.narrateSubtitleSample', { open: false });
  await done('subtitles');

  // A neural voice appears in the data directory (random weights: only its readiness matters here).
  const voiceDir = path.join(setting<string>('dataDirectory'), 'models', 'tts', 'walkthrough-piper');
  await mkdir(voiceDir, { recursive: true });
  await copyFile(testModel('sherpa-synthetic/vits-piper/model.onnx'), path.join(voiceDir, 'model.onnx'));
  await copyFile(testModel('sherpa-synthetic/vits-piper/tokens.txt'), path.join(voiceDir, 'tokens.txt'));
  await writeFile(
    path.join(voiceDir, 'voice.json'),
    JSON.stringify({
      name: 'Walkthrough',
      engine: 'vits',
      languageCode: 'en-US',
      files: { model: 'model.onnx', tokens: 'tokens.txt' },
    }),
  );
  await done('voice');

  const whisper = path.join(setting<string>('dataDirectory'), 'models', 'whisper');
  await mkdir(whisper, { recursive: true });
  await copyFile(testModel('whisper/ggml-synthetic-random.bin'), path.join(whisper, 'ggml-synthetic-random.bin'));
  await done('sttModel');

  await vscode.commands.executeCommand('speechStudio.walkthrough.transcribeSample', { open: false });
  await done('transcribe');

  // The curl command works as printed: a shell runs the OpenAI-style call and the audio lands in speech.mp3.
  const line = await vscode.commands.executeCommand<string>('speechStudio.walkthrough.tryLocalApi', { open: false });
  assert.match(
    line,
    new RegExp(`^curl -s '${studio.baseUrl}/audio/speech' -H 'Authorization: Bearer ssk_local_.* -o speech\\.mp3$`),
  );
  assert.equal(await vscode.env.clipboard.readText(), line);
  const shellDir = await mkdtemp(path.join(os.tmpdir(), 'walkthrough-curl-'));
  await run('sh', ['-c', line], { cwd: shellDir });
  const mp3 = await readFile(path.join(shellDir, 'speech.mp3'));
  assert.ok(
    mp3.length > 1000 && (mp3.subarray(0, 3).toString('latin1') === 'ID3' || mp3[0] === 0xff),
    `speech.mp3 is audio (${mp3.length} bytes)`,
  );
  await rm(shellDir, { recursive: true, force: true });
  await done('localApi');
}, 240_000);

test('the Local API step types its curl into a terminal once, without running it, the job API offered second', async () => {
  const line = await vscode.commands.executeCommand<string>('speechStudio.walkthrough.tryLocalApi');
  assert.match(line, /\/audio\/speech' .* -o speech\.mp3$/, 'the OpenAI-style one-liner first');
  const terminal = await waitFor('the Local API terminal', () =>
    vscode.window.terminals.find((t) => t.name === 'Speech Studio: Local API'),
  );
  try {
    // What the terminal shows, read through its own Select All and Copy (the clipboard emptied first, as the step filled it).
    await vscode.env.clipboard.writeText('');
    const shown = await waitFor(
      'the curl in the terminal',
      async () => {
        terminal.show();
        await vscode.commands.executeCommand('workbench.action.terminal.selectAll');
        await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
        const text = await vscode.env.clipboard.readText();
        return text.includes('speech.mp3') ? text : undefined;
      },
      30_000,
    );
    assert.equal(shown.split('-o speech.mp3').length - 1, 1, `the curl once: ${JSON.stringify(shown)}`);
    assert.ok(!existsSync(workspaceFile('speech.mp3').fsPath), "typed, not run: Enter is the user's");
    await waitForNotification(
      ':has-text("The curl command is in the terminal")',
      ':has-text("The curl command is in the terminal") .monaco-button:has-text("Copy the Job API Command")',
    );
  } finally {
    terminal.dispose();
    await clearNotifications();
    await vscode.commands.executeCommand('workbench.action.closePanel');
  }
}, 60_000);
