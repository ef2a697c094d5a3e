import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { SUBTITLE_CHECK_SOURCE } from '../../src/editor/subtitles/diagnostics';
import type { FixCommonProblemsResult } from '../../src/editor/subtitles/fix-common-problems';
import { FIX_COMMON_PROBLEMS_COMMAND } from '../../src/editor/subtitles/quick-fixes';
import { teardown, test } from './harness';
import { screenshot, ui, updateSetting, waitFor, workspaceFile } from './helpers';

// quick-fix.srt (BOM, CRLF): cue 1 has a line too long, cue 2 is too short, cue 3 too long (a line too), cue 4 overlaps it.
const ORIGINAL = [
  '1',
  '00:00:01,000 --> 00:00:04,000',
  'A line that is much, much longer than forty-two characters and more',
  '',
  '2',
  '00:00:04,500 --> 00:00:05,000',
  'Too short.',
  '',
  '3',
  '00:00:06,000 --> 00:00:14,000',
  'This cue runs for eight seconds. It should be split in two.',
  '',
  '4',
  '00:00:13,500 --> 00:00:16,000',
  'I start early.',
  '',
].join('\r\n');
const PROBLEMS = [
  '1:reading-speed',
  '2:line-too-long',
  '5:reading-speed',
  '5:too-short',
  '9:too-long',
  '10:line-too-long',
  '13:overlap',
];

const problems = (uri: vscode.Uri): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(uri).filter((d) => d.source === SUBTITLE_CHECK_SOURCE);
const brief = (uri: vscode.Uri): string =>
  problems(uri)
    .map((d) => `${d.range.start.line}:${d.code as string}`)
    .sort()
    .join(' ');

async function openFixture(): Promise<vscode.TextEditor> {
  const uri = workspaceFile('subtitles', 'quick-fix.srt');
  const editor = await vscode.window.showTextDocument(uri);
  if (editor.document.isDirty) await vscode.commands.executeCommand('workbench.action.files.revert');
  assert.equal(editor.document.getText(), ORIGINAL, 'the fixture as saved');
  await waitFor("the quick-fix file's problems", () =>
    brief(uri) === [...PROBLEMS].sort().join(' ') ? true : undefined,
  );
  return editor;
}

async function actionsAt(uri: vscode.Uri, line: number): Promise<vscode.CodeAction[]> {
  const found = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
    'vscode.executeCodeActionProvider',
    uri,
    new vscode.Range(line, 0, line, 1),
    vscode.CodeActionKind.QuickFix.value,
    10,
  );
  return found.filter((a): a is vscode.CodeAction => 'edit' in a && a.edit !== undefined);
}

/** Applies the action titled `title` on `line` and checks the text it leaves. */
async function apply(editor: vscode.TextEditor, line: number, title: string, expected: string): Promise<void> {
  const actions = await actionsAt(editor.document.uri, line);
  // A title goes on with what the fix changes, before → after: "… (cue 3 ends 00:00:14.000 → 00:00:13.420)".
  const action = actions.find((a) => a.title.startsWith(`${title} (`));
  assert.ok(action, `"${title}" on line ${line} among: ${actions.map((a) => a.title).join(' | ')}`);
  assert.ok(await vscode.workspace.applyEdit(action.edit!));
  const text = editor.document.getText();
  assert.equal(text, expected, `${title}: ${JSON.stringify(text)}`);
}

const replaced = (...pairs: [string, string][]): string =>
  pairs.reduce((text, [from, to]) => {
    assert.ok(text.includes(from), from);
    return text.replace(from, to);
  }, ORIGINAL);

teardown(async () => {
  await updateSetting('subtitles.style', undefined);
  await updateSetting('subtitles.check', false);
});

test('each subtitle quick fix turns the problem it is offered on into the expected text', async () => {
  // The expected times are the default style's (the check tests before this one leave BBC's set).
  await updateSetting('subtitles.style', 'default');
  await updateSetting('subtitles.limits', undefined);
  await updateSetting('subtitles.check', true);
  let editor = await openFixture();
  const uri = editor.document.uri;
  const titles = (
    await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
      'vscode.executeCodeActionProvider',
      uri,
      new vscode.Range(2, 0, 2, 1),
      vscode.CodeActionKind.QuickFix.value,
      10,
    )
  ).map((a) => a.title);
  assert.deepEqual(titles, [
    'Rebalance the lines of cue 1 (cue 1 reads "A line that is much, much longer / than forty-two characters and more")',
    'Split cue 1 in two (cue 1 becomes cues 1 and 2)',
    'Fix all lines too long in this file…',
  ]);
  await apply(
    editor,
    2,
    'Rebalance the lines of cue 1',
    replaced([
      'A line that is much, much longer than forty-two characters and more',
      'A line that is much, much longer\r\nthan forty-two characters and more',
    ]),
  );
  await waitFor('no line too long in cue 1', () => (brief(uri).includes('2:line-too-long') ? undefined : true));

  editor = await openFixture();
  await apply(
    editor,
    5,
    'Extend cue 2 into the following gap',
    replaced(['00:00:04,500 --> 00:00:05,000', '00:00:04,500 --> 00:00:05,330']),
  );

  // 32 + 26 characters over 8 s: the break at 6 + 8 × 32/58 = 10.414 s, 40 ms either side; cue 4 becomes 5.
  const split = replaced(
    [
      '00:00:06,000 --> 00:00:14,000\r\nThis cue runs for eight seconds. It should be split in two.',
      '00:00:06,000 --> 00:00:10,374\r\nThis cue runs for eight seconds.\r\n\r\n4\r\n00:00:10,454 --> 00:00:14,000\r\nIt should be split in two.',
    ],
    ['\r\n4\r\n00:00:13,500', '\r\n5\r\n00:00:13,500'],
  );
  editor = await openFixture();
  await apply(editor, 9, 'Split cue 3 in two', split);
  // The file-wide fix previews its changes first; Enter applies them as one edit.
  editor = await openFixture();
  const fixing = Promise.resolve(
    vscode.commands.executeCommand<FixCommonProblemsResult>(FIX_COMMON_PROBLEMS_COMMAND, uri, ['too-long']),
  );
  await ui({
    action: 'waitFor',
    selector: '.quick-input-widget .monaco-list-row:has-text("cue 3 becomes cues 3 and 4")',
  });
  await ui({ action: 'press', key: 'Enter' });
  assert.equal((await fixing)?.applied, true);
  assert.equal(editor.document.getText(), split, 'Fix all cues too long');
  await vscode.window.showTextDocument(editor.document);
  await vscode.commands.executeCommand('undo');
  assert.equal(editor.document.getText(), ORIGINAL, 'one undo takes the whole fix back');

  editor = await openFixture();
  await apply(
    editor,
    13,
    'End cue 3 before cue 4 starts',
    replaced(['00:00:06,000 --> 00:00:14,000', '00:00:06,000 --> 00:00:13,420']),
  );
  await waitFor('no overlap', () => (brief(uri).includes('overlap') ? undefined : true));

  // The fixed file saves with its byte-order mark and CRLF line ends.
  await vscode.commands.executeCommand('workbench.action.files.save');
  const saved = readFileSync(uri.fsPath, 'utf8');
  assert.ok(saved.startsWith('\uFEFF1\r\n'));
  assert.ok(!/[^\r]\n/.test(saved), 'only CRLF line ends');
}, 90_000);

// Cue 2 starts 1.4 s before cue 1 ends: ending cue 1 before it would leave it 0.52 s at 51.9 characters per second.
const OVERLAP = [
  '1',
  '00:00:01,000 --> 00:00:03,000',
  'He said he would come back.',
  '',
  '2',
  '00:00:01,600 --> 00:00:06,000',
  'She did not believe him.',
  '',
].join('\n');

test('a fix that would create a problem says so and is not preferred; the one that creates none is, and Fix Common Problems picks it', async () => {
  await updateSetting('subtitles.style', 'default');
  await updateSetting('subtitles.check', true);
  const uri = workspaceFile('subtitles', 'safe-fix.srt');
  await vscode.workspace.fs.writeFile(uri, Buffer.from(OVERLAP));
  try {
    const editor = await vscode.window.showTextDocument(uri);
    await waitFor('the overlap', () => (brief(uri) === '5:overlap' ? true : undefined));
    const actions = await actionsAt(uri, 5);
    const titles = actions.map((a) => `${a.isPreferred ? '★ ' : ''}${a.title}`);
    assert.deepEqual(titles, [
      '★ Start cue 2 after cue 1 ends (cue 2 starts 00:00:01.600 → 00:00:03.080)',
      'Move cues 1 and 2 apart halfway (cue 1 ends 00:00:03.000 → 00:00:02.260; cue 2 starts 00:00:01.600 → 00:00:02.340) — creates: cue 1 reads at 21.4 characters per second, faster than 17',
      'End cue 1 before cue 2 starts (cue 1 ends 00:00:03.000 → 00:00:01.520) — creates: cue 1 lasts 0.52 s, less than the minimum of 0.83 s; cue 1 reads at 51.9 characters per second, faster than 17',
    ]);

    const fixing = Promise.resolve(
      vscode.commands.executeCommand<FixCommonProblemsResult>(FIX_COMMON_PROBLEMS_COMMAND),
    );
    const rows = '.quick-input-widget .monaco-list-row';
    await ui({ action: 'waitFor', selector: `${rows}:has-text("Apply this fix")` });
    await ui({ action: 'waitFor', selector: `${rows}:has-text("cue 2 starts 00:00:01.600 → 00:00:03.080")` });
    await screenshot('fix-common-problems');
    await ui({ action: 'click', selector: `${rows}:has-text("Apply this fix")` });
    const result = await fixing;
    assert.equal(result?.applied, true);
    assert.deepEqual(result?.remaining, []);
    assert.equal(editor.document.getText(), OVERLAP.replace('00:00:01,600 -->', '00:00:03,080 -->'));
    await waitFor('no problem left', () => (brief(uri) === '' ? true : undefined));
    await ui({
      action: 'waitFor',
      selector: '.notifications-toasts .notification-list-item:has-text("Fixed 1 problem in safe-fix.srt; none left")',
    });
  } finally {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.workspace.fs.delete(uri);
  }
}, 60_000);

test("Shift Subtitle Timing moves the cues from the cursor's on by the typed offset, as one undoable edit", async () => {
  const uri = workspaceFile('subtitles', 'quick-fix.srt');
  const editor = await vscode.window.showTextDocument(uri);
  const before = editor.document.getText();
  assert.ok(
    before.includes('00:00:06,000 --> 00:00:13,420'),
    'the quick-fix test saved the file with the overlap pulled back',
  );
  editor.selection = new vscode.Selection(10, 3, 10, 3); // in cue 3's text
  const shifting = Promise.resolve(vscode.commands.executeCommand<boolean>('speechStudio.shiftSubtitleTiming'));
  const input = '.quick-input-widget input';
  await ui({ action: 'waitFor', selector: '.quick-input-widget:has-text("Seconds to move the cues by")' });
  await ui({ action: 'type', selector: input, text: '-0.25' });
  await ui({ action: 'press', key: 'Enter' });
  await ui({ action: 'waitFor', selector: '.quick-input-widget .monaco-list-row:has-text("From cue 3 on")' });
  await ui({ action: 'click', selector: '.quick-input-widget .monaco-list-row:has-text("From cue 3 on")' });
  assert.equal(await shifting, true);
  assert.equal(
    editor.document.getText(),
    before
      .replace('00:00:06,000 --> 00:00:13,420', '00:00:05,750 --> 00:00:13,170')
      .replace('00:00:13,500 --> 00:00:16,000', '00:00:13,250 --> 00:00:15,750'),
  );
  await vscode.commands.executeCommand('undo');
  assert.equal(editor.document.getText(), before);
  await vscode.commands.executeCommand('workbench.action.files.revert');
}, 60_000);
