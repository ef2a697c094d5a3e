import assert from 'node:assert/strict';
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import type { AddPronunciationResult } from '../../src/editor/commands/add-pronunciation';
import { PLAY_SPOT_COMMAND, PROOF_LISTEN_SOURCE, type SpotPlayback } from '../../src/editor/proof-listen/problems';
import type { ProofListenResult } from '../../src/editor/proof-listen/proof-listen';
import type { SpeechStudioJob } from '../../src/extension';
import { teardown, test } from './harness';
import {
  clearNotifications,
  extensionApi,
  processing,
  screenshot,
  setting,
  testModel,
  ui,
  waitFor,
  workspaceFile,
} from './helpers';

const whisperDir = (): string => path.join(setting<string>('dataDirectory'), 'models', 'whisper');
const LONG = workspaceFile('proof-listen-long.md');
const toast = '.notifications-toasts .notification-list-item:has-text("Proof-listening")';

async function installWhisper(): Promise<void> {
  await mkdir(whisperDir(), { recursive: true });
  await copyFile(testModel('whisper/ggml-synthetic-random.bin'), path.join(whisperDir(), 'ggml-synthetic-random.bin'));
}

async function open(uri: vscode.Uri): Promise<vscode.TextEditor> {
  const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  editor.selection = new vscode.Selection(0, 0, 0, 0);
  return editor;
}

const ours = (uri: vscode.Uri): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(uri).filter((d) => d.source === PROOF_LISTEN_SOURCE);
const proofListen = (): Promise<ProofListenResult | undefined> =>
  Promise.resolve(vscode.commands.executeCommand<ProofListenResult | undefined>('speechStudio.proofListenDocument'));

teardown(() => rm(LONG.fsPath, { force: true }));

test('Proof-Listen Document without a speech-to-text model says so in one sentence and offers Install Model', async () => {
  const aside = `${whisperDir()}-aside`;
  await mkdir(whisperDir(), { recursive: true });
  await rename(whisperDir(), aside);
  try {
    await open(workspaceFile('proof-listen.md'));
    await clearNotifications();
    const running = proofListen();
    await ui({
      action: 'waitFor',
      selector:
        '.notifications-toasts .notification-list-item:has-text("needs a speech-to-text model, which is not installed")',
    });
    await ui({
      action: 'waitFor',
      selector: '.notifications-toasts .notification-list-item .monaco-button:has-text("Install Model")',
    });
    await clearNotifications();
    assert.equal(await running, undefined, 'dismissed: nothing is narrated');
    assert.deepEqual(ours(workspaceFile('proof-listen.md')), []);
  } finally {
    await rm(whisperDir(), { recursive: true, force: true });
    await rename(aside, whisperDir());
  }
});

test("Cancel in Proof-listening's notification cancels the narration, and then the transcription, starting nothing after", async () => {
  await installWhisper();
  const studio = await extensionApi();
  await writeFile(
    LONG.fsPath,
    `# A long chapter\n\n${'The narrator reads this sentence once more, so that the jobs run long enough to be cancelled. '.repeat(150)}\n`,
  );
  await open(LONG);
  for (const stage of ['tts', 'stt'] as const) {
    await clearNotifications();
    const jobs: SpeechStudioJob[] = [];
    const watching = studio.onDidChangeJob((changed) => {
      if (
        !jobs.some((job) => job.id === changed.id) &&
        (changed.kind === 'stt' || changed.name.startsWith('A long chapter'))
      )
        jobs.push(changed);
    });
    try {
      const running = proofListen();
      const target = await waitFor(`the ${stage} job to start`, () => jobs.find((job) => job.kind === stage), 120_000);
      await processing(studio, target.id, 120_000);
      await ui({ action: 'click', selector: `${toast} .monaco-button:has-text("Cancel")` });
      const result = await running;
      assert.ok(result, 'the command returns its jobs');
      assert.deepEqual(
        result.jobs.map((job) => [job.kind, job.status]),
        stage === 'tts'
          ? [['tts', 'cancelled']]
          : [
              ['tts', 'succeeded'],
              ['stt', 'cancelled'],
            ],
      );
      assert.equal(jobs.length, stage === 'tts' ? 1 : 2, 'no job started after the cancelled one');
      assert.deepEqual(ours(LONG), [], 'a cancelled proof-listen leaves no problems');
    } finally {
      watching.dispose();
    }
  }
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
}, 300_000);

test('Proof-Listen Document narrates, transcribes, and leaves the differences as Problems on the words with quick fixes', async () => {
  await installWhisper();
  const uri = workspaceFile('proof-listen.md');
  const editor = await open(uri);
  const document = editor.document;
  const result = await proofListen();
  assert.ok(result, 'the command ran');
  assert.deepEqual(
    result.jobs.map((job) => [job.kind, job.status]),
    [
      ['tts', 'succeeded'],
      ['stt', 'succeeded'],
    ],
    result.jobs.map((job) => job.error).join(' '),
  );
  // The synthetic model's words mean nothing: the structure is what is checked.
  assert.ok(result.sourceTokens >= 25, `the narrated words were compared (${result.sourceTokens})`);
  assert.ok(result.findings.length > 0, 'random words differ from the text');
  // The summary says how many differences there are, and its button shows them.
  await ui({
    action: 'waitFor',
    selector:
      '.notifications-toasts .notification-list-item:has-text("Proof-listen:") .monaco-button:has-text("Show Problems")',
  });
  const diagnostics = ours(uri);
  assert.equal(diagnostics.length, result.findings.length);
  const code = document.getText().indexOf('```js');
  const codeEnd = document.getText().indexOf('```', code + 3) + 3;
  for (const diagnostic of diagnostics) {
    assert.ok(['skipped', 'added', 'said-differently'].includes(diagnostic.code as string), diagnostic.code as string);
    assert.ok(
      document.validateRange(diagnostic.range).isEqual(diagnostic.range),
      `range inside the document: ${JSON.stringify(diagnostic.range)}`,
    );
    const [start, end] = [document.offsetAt(diagnostic.range.start), document.offsetAt(diagnostic.range.end)];
    assert.ok(end <= code || start >= codeEnd, 'nothing in the code block, which is not narrated');
    assert.match(
      diagnostic.message,
      /^(Skipped in the narration|Added in the narration|Said differently): .* \(at \d\d:\d\d\.\d{3}\)$/,
    );
  }

  // The heading is a sentence of its own (two words): random words cannot match it.
  const fixable = diagnostics.find((d) => d.code !== 'added' && document.getText(d.range).split(/\s+/).length <= 4);
  assert.ok(fixable, `the heading was not heard as written: ${diagnostics.map((d) => d.message).join('; ')}`);
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
    'vscode.executeCodeActionProvider',
    uri,
    fixable.range,
    vscode.CodeActionKind.QuickFix.value,
  );
  const add = actions.find((action) => action.title.startsWith('Add pronunciation for'));
  const play = actions.find((action) => action.title.startsWith('▶ Play this spot'));
  const long = diagnostics.find((d) => d.code !== 'added' && document.getText(d.range).split(/\s+/).length > 4);
  if (long) {
    const offered = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      long.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    assert.ok(
      !offered.some((action) => action.title.startsWith('Add pronunciation')),
      'a run of more than four words is a misreading, not a pronunciation',
    );
    assert.ok(offered.some((action) => action.title.startsWith('▶ Play this spot')));
  }
  const finding = result.findings.find(
    (f) => f.start === document.offsetAt(fixable.range.start) && f.kind === fixable.code,
  );
  assert.ok(finding, 'the problem is a finding of the result');
  const written = finding.written;
  for (const word of written.split(' '))
    assert.ok(document.getText(fixable.range).includes(word), `"${word}" is in the range`);
  assert.equal(add?.command?.command, 'speechStudio.addPronunciation');
  assert.deepEqual(add.command.arguments, [{ text: written }]);
  assert.equal(play?.command?.command, PLAY_SPOT_COMMAND);

  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
    'vscode.executeHoverProvider',
    uri,
    fixable.range.start,
  );
  const hoverText = hovers
    .flatMap((hover) => hover.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')))
    .join('\n');
  assert.match(hoverText, /▶ Play this spot/);
  await vscode.commands.executeCommand('workbench.actions.view.problems');
  await vscode.window.showTextDocument(document);
  editor.selection = new vscode.Selection(fixable.range.start, fixable.range.start);
  await vscode.commands.executeCommand('editor.action.showHover');
  await screenshot('proof-listen');

  const playback = await vscode.commands.executeCommand<SpotPlayback | undefined>(
    play.command.command,
    ...(play.command.arguments ?? []),
  );
  assert.equal(playback?.report.state, 'playing', playback?.report.error ?? 'no playback');
  assert.equal(playback.report.file, result.narration);
  assert.ok(
    Math.abs(playback.report.start - Math.max(0, playback.finding.time.start - 0.5)) < 0.05,
    `played from ${playback.report.start} s`,
  );

  // The quick fix opens Add Pronunciation for those words (answered here instead of in its dialogs).
  const added = await vscode.commands.executeCommand<AddPronunciationResult>(add.command.command, {
    ...add.command.arguments[0],
    say: 'test',
    choice: 'Cancel',
    play: false,
  });
  assert.equal(added?.entry.text, written);
  assert.equal(added.job.status, 'succeeded', added.job.error ?? '');
}, 180_000);

test('Proof-Listen Document on a selection replaces the Problems with its own, and editing the document clears them', async () => {
  const uri = workspaceFile('proof-listen.md');
  const editor = await open(uri);
  assert.ok(ours(uri).length > 0, 'the problems of the previous test are there');
  // Only the heading: a short narration, and problems on the heading alone.
  const heading = editor.document.lineAt(0).range;
  editor.selection = new vscode.Selection(heading.start, heading.end);
  const again = await proofListen();
  assert.equal(again?.jobs[1]?.status, 'succeeded', again?.jobs.map((job) => job.error).join(' '));
  assert.equal(ours(uri).length, again.findings.length, 'replaced, not added to');
  assert.ok(again.findings.length > 0);
  for (const diagnostic of ours(uri)) assert.equal(diagnostic.range.start.line, 0, diagnostic.message);
  await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), ' '));
  await waitFor('the problems to clear', () => ours(uri).length === 0 || undefined);
  await vscode.commands.executeCommand('workbench.action.files.revert');
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
}, 180_000);
