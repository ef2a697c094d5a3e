/**
 * Name This Speaker… on an SRT transcript's speaker label: offered as a code action on a labelled line; enrolls
 * the voice of that speaker's cues, cut from the media beside the file, and renames the label throughout the
 * file; refuses a name taken, too little speech and a generic label. The diarization models have random weights:
 * the voice means nothing, the mechanism is what is checked.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import type { NameSpeakerResult } from '../../src/editor/subtitles/name-speaker';
import { test } from './harness';
import { setting, testModel, workspaceFile } from './helpers';

const SRT = [
  '1\n00:00:00,000 --> 00:00:03,000\n[Speaker 1] First words.\n',
  '2\n00:00:03,000 --> 00:00:08,000\n[Speaker 2] An answer.\n',
  '3\n00:00:08,000 --> 00:00:11,000\n[Speaker 1] More words.\n',
  '4\n00:00:11,500 --> 00:00:12,000\n[Speaker 3] Hm.\n',
].join('\n');

test("Name This Speaker… enrolls a label's voice from its cues and renames it in the file; refuses a taken name, too little speech, a generic name", async () => {
  const dataDir = setting<string>('dataDirectory');
  await mkdir(path.join(dataDir, 'models', 'diarization'), { recursive: true });
  for (const name of ['segmentation.onnx', 'embedding.onnx'])
    await copyFile(
      testModel(`sherpa-synthetic/diarization/${name}`),
      path.join(dataDir, 'models', 'diarization', name),
    );
  const folder = workspaceFile('speakers');
  await mkdir(folder.fsPath, { recursive: true });
  await copyFile(testModel('audio/multispeaker/1-two-speakers-en.wav'), path.join(folder.fsPath, 'talk.wav'));
  const srt = vscode.Uri.joinPath(folder, 'talk.srt');
  await writeFile(srt.fsPath, SRT);

  const document = await vscode.workspace.openTextDocument(srt);
  await vscode.window.showTextDocument(document);
  const labelled = document.lineAt(6).range; // "[Speaker 2] An answer."
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
    'vscode.executeCodeActionProvider',
    srt,
    labelled,
  );
  const offered = actions.find((action) => action.title === 'Name This Speaker (Speaker 2)…');
  assert.ok(offered, `offered: ${actions.map((action) => action.title).join(', ')}`);
  assert.deepEqual(offered.command?.arguments?.slice(1), ['Speaker 2']);

  const named = await vscode.commands.executeCommand<NameSpeakerResult>(
    'speechStudio.nameThisSpeaker',
    srt,
    'Speaker 1',
    { name: 'Ann Lee' },
  );
  assert.deepEqual(named, { name: 'Ann Lee', replaced: 2 });
  const text = await readFile(srt.fsPath, 'utf8');
  assert.equal(text.match(/\[Ann Lee\]/g)?.length, 2);
  assert.ok(!text.includes('[Speaker 1]') && text.includes('[Speaker 2] An answer.'));
  const known = JSON.parse(await readFile(path.join(dataDir, 'known-speakers.json'), 'utf8'));
  const ann = known.speakers.find((speaker: { name: string }) => speaker.name === 'Ann Lee');
  assert.ok(ann && ann.speechSeconds > 2 && ann.embedding.length > 0, JSON.stringify(known).slice(0, 300));

  const taken = await vscode.commands.executeCommand<NameSpeakerResult>(
    'speechStudio.nameThisSpeaker',
    srt,
    'Speaker 2',
    { name: 'Ann Lee' },
  );
  assert.match(taken.error ?? '', /already enrolled/);
  const short = await vscode.commands.executeCommand<NameSpeakerResult>(
    'speechStudio.nameThisSpeaker',
    srt,
    'Speaker 3',
    { name: 'Cy' },
  );
  assert.match(short.error ?? '', /at least 2 s/);
  const generic = await vscode.commands.executeCommand<NameSpeakerResult>(
    'speechStudio.nameThisSpeaker',
    srt,
    'Speaker 2',
    { name: 'Speaker 7' },
  );
  assert.match(generic.error ?? '', /unnamed speakers/);
  assert.ok(
    (await readFile(srt.fsPath, 'utf8')).includes('[Speaker 2] An answer.'),
    'a refusal leaves the file as it was',
  );
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
}, 120_000);
