/**
 * SSML in the editor: an `.ssml` file is the ssml language, its malformed markup is a Problem at the reader's
 * line and column (and so is a ```ssml block in Markdown), completions offer the elements and say-as values,
 * Narrate Selection speaks the document with its break, and Read Aloud reads it by its markup.
 */
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { NarrateResult } from '../../src/editor/commands/narrate-selection';
import type { ReadAloudStatus } from '../../src/editor/read-aloud/read-aloud';
import { teardown, test } from './harness';
import { waitFor, workspaceFile } from './helpers';

const SSML_FILE = workspaceFile('greeting.ssml');
const MARKDOWN_FILE = workspaceFile('ssml-notes.md');
teardown(async () => {
  await rm(SSML_FILE.fsPath, { force: true });
  await rm(MARKDOWN_FILE.fsPath, { force: true });
});

const problemsOf = (uri: vscode.Uri) =>
  vscode.languages.getDiagnostics(uri).filter((problem) => problem.source === 'SSML');

test('an .ssml file: Problems at the line and column of malformed markup, gone once fixed', async () => {
  await writeFile(SSML_FILE.fsPath, '<speak>\n  Hello <break time="soon"/> there.\n</speak>\n');
  const document = await vscode.workspace.openTextDocument(SSML_FILE);
  const editor = await vscode.window.showTextDocument(document);
  assert.equal(document.languageId, 'ssml');
  const [problem] = await waitFor('the SSML problem', () => problemsOf(SSML_FILE)[0] && problemsOf(SSML_FILE));
  assert.equal(problem.severity, vscode.DiagnosticSeverity.Error);
  assert.match(problem.message, /<break time="soon">: time must be like 500ms/);
  assert.deepEqual([problem.range.start.line, problem.range.start.character], [1, 8]);
  await editor.edit((edit) => edit.replace(new vscode.Range(1, 21, 1, 25), '800ms'));
  await waitFor('the problem to go', () => (problemsOf(SSML_FILE).length === 0 ? true : undefined));
});

test('completions offer the SSML elements after < and the say-as kinds inside interpret-as', async () => {
  const editor = vscode.window.activeTextEditor!;
  await editor.edit((edit) => edit.insert(new vscode.Position(2, 0), '<\n<say-as interpret-as=""\n'));
  const elements = await vscode.commands.executeCommand<vscode.CompletionList>(
    'vscode.executeCompletionItemProvider',
    SSML_FILE,
    new vscode.Position(2, 1),
  );
  const names = elements.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
  for (const name of ['speak', 'break', 'prosody', 'say-as', 'phoneme', 'audio'])
    assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
  const kinds = await vscode.commands.executeCommand<vscode.CompletionList>(
    'vscode.executeCompletionItemProvider',
    SSML_FILE,
    new vscode.Position(3, 22),
  );
  const values = kinds.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
  for (const kind of ['characters', 'cardinal', 'date', 'telephone'])
    assert.ok(values.includes(kind), `${kind} in ${values.join(', ')}`);
  await vscode.commands.executeCommand('workbench.action.files.revert');
});

test('Narrate Selection speaks the .ssml document with its break', async () => {
  await writeFile(SSML_FILE.fsPath, '<speak>\n  Hello <break time="1500ms"/> there.\n</speak>\n');
  const document = await vscode.workspace.openTextDocument(SSML_FILE);
  const editor = await vscode.window.showTextDocument(document);
  await vscode.commands.executeCommand('workbench.action.files.revert');
  editor.selection = new vscode.Selection(0, 0, 0, 0);
  const result = await vscode.commands.executeCommand<NarrateResult>('speechStudio.narrateSelection', { play: false });
  assert.equal(result?.job.status, 'succeeded', result?.job.error ?? '');
  const wav = await readFile(result.audioPath!);
  const seconds = (wav.length - 44) / wav.readUInt32LE(28);
  assert.ok(seconds > 2, `two words and a 1.5 s break last more than 2 s (got ${seconds})`);
});

test('Narrate Selection lists what the engine did not honour of the SSML in Problems', async () => {
  await writeFile(SSML_FILE.fsPath, '<speak>\n  A <phoneme alphabet="ipa" ph="ʕa">word</phoneme>.\n</speak>\n');
  const document = await vscode.workspace.openTextDocument(SSML_FILE);
  const editor = await vscode.window.showTextDocument(document);
  await vscode.commands.executeCommand('workbench.action.files.revert');
  editor.selection = new vscode.Selection(1, 0, 1, 0);
  const result = await vscode.commands.executeCommand<NarrateResult>('speechStudio.narrateSelection', { play: false });
  assert.equal(result?.job.status, 'succeeded', result?.job.error ?? '');
  const [problem] = vscode.languages.getDiagnostics(SSML_FILE).filter((found) => found.source === 'Narrate');
  assert.match(problem?.message ?? '', /did not honour ssml phoneme: .*no phoneme for a symbol in "ʕa"/);
  assert.equal(problem.severity, vscode.DiagnosticSeverity.Information);
});

test('a ```ssml block in Markdown: its Problem sits on the document line of the markup', async () => {
  await writeFile(
    MARKDOWN_FILE.fsPath,
    '# Notes\n\nPlain text.\n\n```ssml\n<speak>\n  <prosody rate="zippy">x</prosody>\n</speak>\n```\n',
  );
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(MARKDOWN_FILE));
  const [problem] = await waitFor(
    'the Markdown SSML problem',
    () => problemsOf(MARKDOWN_FILE)[0] && problemsOf(MARKDOWN_FILE),
  );
  assert.match(problem.message, /rate must be/);
  assert.deepEqual([problem.range.start.line, problem.range.start.character], [6, 2]);
});

test('Read Aloud speaks the .ssml document by its markup: parts highlighted where written, the break heard, the skipped phoneme in Problems', async () => {
  const source =
    '<speak>\n  One <say-as interpret-as="cardinal">42</say-as>.<break time="800ms"/>\n  A <phoneme alphabet="ipa" ph="ʕa">word</phoneme> last.\n</speak>\n';
  await writeFile(SSML_FILE.fsPath, source);
  const document = await vscode.workspace.openTextDocument(SSML_FILE);
  await vscode.window.showTextDocument(document);
  await vscode.commands.executeCommand('workbench.action.files.revert');
  const status = (): Thenable<ReadAloudStatus> =>
    vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.status');
  const first = await vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.document');
  assert.equal(first?.count, 2, 'two parts: before the break and after it');
  const done = await waitFor(
    'the reading to finish',
    async () => ((await status()).state === 'finished' ? status() : undefined),
    60_000,
  );
  const highlights = done.events.filter((e) => e.type === 'highlight').map((e) => (e as { text?: string }).text);
  assert.deepEqual(highlights, [
    'One <say-as interpret-as="cardinal">42</say-as>.',
    'A <phoneme alphabet="ipa" ph="ʕa">word</phoneme> last.',
  ]);
  const audio = done.events.filter((e) => e.type === 'audio') as { durationSeconds: number }[];
  assert.ok(
    audio[1].durationSeconds > 0.8,
    `the second part opens with the 800 ms break (${audio[1].durationSeconds} s)`,
  );
  assert.match(done.ignored['ssml phoneme'] ?? '', /no phoneme for a symbol/);
  const skipped = vscode.languages.getDiagnostics(SSML_FILE).filter((problem) => problem.source === 'Read Aloud');
  assert.equal(skipped.length, 1);
  assert.equal(skipped[0].range.start.line, 2, 'at the part that has the phoneme');
  assert.match(skipped[0].message, /did not honour ssml phoneme/);
});

test('Read Aloud refuses malformed SSML naming where it is, and reads a ```ssml block of Markdown in its place', async () => {
  await writeFile(
    MARKDOWN_FILE.fsPath,
    '# Notes\n\nPlain text.\n\n```ssml\n<speak>\n  Marked <break time="300ms"/> up.\n</speak>\n```\n\nThe end.\n',
  );
  const document = await vscode.workspace.openTextDocument(MARKDOWN_FILE);
  await vscode.window.showTextDocument(document);
  await vscode.commands.executeCommand('workbench.action.files.revert');
  const reading = await vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.document');
  assert.equal(reading?.count, 5, 'heading, prose, the two parts of the block, prose');
  const status = (): Thenable<ReadAloudStatus> =>
    vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.status');
  const done = await waitFor(
    'the reading to finish',
    async () => ((await status()).state === 'finished' ? status() : undefined),
    60_000,
  );
  const highlights = done.events.filter((e) => e.type === 'highlight').map((e) => (e as { text?: string }).text);
  assert.deepEqual(highlights, ['Notes', 'Plain text.', 'Marked', 'up.', 'The end.']);
  await writeFile(MARKDOWN_FILE.fsPath, '```ssml\n<speak>\n  <prosody rate="zippy">x</prosody>\n</speak>\n```\n');
  await vscode.commands.executeCommand('workbench.action.files.revert');
  assert.equal(await vscode.commands.executeCommand('speechStudio.readAloud.document'), undefined, 'nothing is read');
});
