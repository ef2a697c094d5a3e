import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { test } from './harness';
import { extensionApi, screenshot, setting, testModel, ui, waitFor } from './helpers';

const run = promisify(execFile);
const stepButton = (step: string) => `button.getting-started-step[data-step-id="speech-studio.speech-studio#gettingStarted#${step}"]`;
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
  await writeFile(path.join(voiceDir, 'voice.json'), JSON.stringify({ name: 'Walkthrough', engine: 'vits', languageCode: 'en-US', files: { model: 'model.onnx', tokens: 'tokens.txt' } }));
  await done('voice');

  const whisper = path.join(setting<string>('dataDirectory'), 'models', 'whisper');
  await mkdir(whisper, { recursive: true });
  await copyFile(testModel('whisper/ggml-synthetic-random.bin'), path.join(whisper, 'ggml-synthetic-random.bin'));
  await done('sttModel');

  await vscode.commands.executeCommand('speechStudio.walkthrough.transcribeSample', { open: false });
  await done('transcribe');

  // The curl command works as printed: a shell runs it and the job arrives through the Local API.
  const line = await vscode.commands.executeCommand<string>('speechStudio.walkthrough.tryLocalApi', { open: false });
  assert.match(line, new RegExp(`^curl -s -X POST '${studio.baseUrl}/tts/jobs' -H 'Authorization: Bearer ssk_local_`));
  assert.equal(await vscode.env.clipboard.readText(), line);
  const { stdout } = await run('sh', ['-c', line]);
  const job = JSON.parse(stdout) as { id: string; status: string };
  assert.ok(['queued', 'loading_model', 'processing', 'succeeded'].includes(job.status), stdout);
  await done('localApi');
  await waitFor('the API job in the Jobs view data', () => studio.getJob(job.id));
}, 240_000);
