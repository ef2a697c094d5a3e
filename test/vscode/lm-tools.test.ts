import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { test } from './harness';

const resultText = (result: vscode.LanguageModelToolResult): string =>
  result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');

test('the language-model tools are registered with the schemas package.json declares', async () => {
  const names = vscode.lm.tools.map((tool) => tool.name);
  for (const name of ['speechStudio_listVoices', 'speechStudio_transcribe', 'speechStudio_narrate'])
    assert.ok(names.includes(name), `${name} in ${names.join(',')}`);
  const transcribe = vscode.lm.tools.find((tool) => tool.name === 'speechStudio_transcribe')!;
  assert.deepEqual((transcribe.inputSchema as { required: string[] }).required, ['path']);
});

test('an agent lists voices, transcribes a workspace file and narrates text through vscode.lm.invokeTool', async () => {
  const token = new vscode.CancellationTokenSource().token;
  const voices = JSON.parse(
    resultText(
      await vscode.lm.invokeTool(
        'speechStudio_listVoices',
        { input: { search: 'Flite' }, toolInvocationToken: undefined },
        token,
      ),
    ),
  );
  assert.equal(voices.length, 4);

  // The transcription tests installed the synthetic whisper model: only the shape of its output means anything.
  const srt = resultText(
    await vscode.lm.invokeTool(
      'speechStudio_transcribe',
      { input: { path: 'media/interview.wav', format: 'srt', language: 'en' }, toolInvocationToken: undefined },
      token,
    ),
  );
  assert.match(srt, /^1\n\d{2}:\d{2}:\d{2},\d{3} --> /);

  const narrated = resultText(
    await vscode.lm.invokeTool(
      'speechStudio_narrate',
      { input: { text: 'Spoken for an agent.', voiceId: voices[0].id }, toolInvocationToken: undefined },
      token,
    ),
  );
  const audio = /The audio is at (\S+) /.exec(narrated)?.[1];
  assert.ok(audio, narrated);
  assert.equal((await readFile(audio)).subarray(0, 4).toString('latin1'), 'RIFF');
});

test('the language-model tools read and write only inside the workspace, never through a link', async () => {
  const token = new vscode.CancellationTokenSource().token;
  const workspace = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const outside = await mkdtemp(path.join(os.tmpdir(), 'lm-outside-'));
  const link = path.join(workspace, 'agent-link.wav');
  await symlink(path.join(outside, 'through-the-link.wav'), link);
  const narrate = async (outputPath: string, overwrite?: boolean): Promise<vscode.LanguageModelToolResult> =>
    vscode.lm.invokeTool(
      'speechStudio_narrate',
      { input: { text: 'Where does this go?', outputPath, overwrite }, toolInvocationToken: undefined },
      token,
    );
  try {
    await assert.rejects(narrate(path.join(outside, 'out.wav')), /outputPath: .* is outside the folders/);
    await assert.rejects(narrate(link, true), /outputPath: .* is a symbolic link/);
    await assert.rejects(narrate(path.join(workspace, 'no-such-folder', 'a.wav')), /the folder .* does not exist/);
    await assert.rejects(
      async () =>
        vscode.lm.invokeTool(
          'speechStudio_transcribe',
          { input: { path: '/etc/hostname' }, toolInvocationToken: undefined },
          token,
        ),
      /path: .* is outside the folders/,
    );
    assert.deepEqual(await readdir(outside), []);
    const inside = path.join(workspace, 'agent-narration.wav');
    assert.match(resultText(await narrate(inside)), /^Wrote /);
    await assert.rejects(narrate(inside), /exists; pass overwrite: true/);
  } finally {
    await rm(link, { force: true });
    await rm(path.join(workspace, 'agent-narration.wav'), { force: true });
    await rm(outside, { recursive: true, force: true });
  }
});
