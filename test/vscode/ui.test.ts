import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { NarrateResult } from '../../src/editor/commands/narrate-selection';
import type { SpeechStudioJob } from '../../src/extension';
import { test } from './harness';
import {
  api,
  clearNotifications,
  extensionApi,
  processing,
  screenshot,
  shared,
  succeeded,
  ui,
  waitFor,
  workspaceFile,
} from './helpers';

const LONG_TEXT =
  'Speech Studio reads this sentence again and again, so that the job runs long enough to be cancelled. '.repeat(900);

test('Cancel in the progress notification cancels the running job', async () => {
  const studio = await extensionApi();
  await vscode.commands.executeCommand('speechStudio.showJobs');
  await clearNotifications();
  let job: SpeechStudioJob | undefined;
  const watching = studio.onDidChangeJob((changed) => {
    if (changed.name.startsWith('Speech Studio reads this sentence')) job = changed;
  });
  try {
    const command = Promise.resolve(
      vscode.commands.executeCommand<NarrateResult>('speechStudio.narrateSelection', { text: LONG_TEXT, play: false }),
    );
    await waitFor('the narration to start', () => job);
    await processing(studio, job!.id);
    const toast = '.notifications-toasts .notification-list-item:has-text("Narrating")';
    await ui({ action: 'waitFor', selector: toast });
    await ui({ action: 'waitFor', selector: '.statusbar-item:has-text("1 job")' });
    await screenshot('jobs-view-and-progress', { keepNotifications: true });
    await screenshot('status-bar', { selector: '.part.statusbar', keepNotifications: true });
    await ui({ action: 'click', selector: `${toast} .monaco-button:has-text("Cancel")` });
    const result = await command;
    assert.equal(result?.job.status, 'cancelled');
    assert.equal(studio.getJob(job!.id)?.status, 'cancelled');
    assert.equal((await api(studio.baseUrl!, `/jobs/${job!.id}`)).status, 404, 'still an editor job');
  } finally {
    watching.dispose();
  }
}, 90_000);

test('the Jobs view lists the jobs with their status and deletes one', async () => {
  const studio = await extensionApi();
  await vscode.commands.executeCommand('speechStudio.showJobs');
  const row = (text: string) => `.pane-body .monaco-list-row:has-text("${text}")`;
  await ui({ action: 'waitFor', selector: row('The second paragraph') });
  await ui({ action: 'waitFor', selector: row('interview.wav') });
  await ui({ action: 'waitFor', selector: `${row('Speech Studio reads this sentence')}:has-text("cancelled")` });
  const created = await studio.createTtsJob({ text: 'A job to delete.' });
  await succeeded(studio, created.id);
  await ui({ action: 'waitFor', selector: row('A job to delete.') });
  await vscode.commands.executeCommand('speechStudio.job.delete', studio.getJob(created.id));
  assert.equal(studio.getJob(created.id), undefined);
  await ui({ action: 'waitFor', selector: row('A job to delete.'), state: 'detached' });
});

test('Open Output on a transcription job opens the transcript written beside the media', async () => {
  assert.ok(shared.transcriptionJobId, 'the transcription test ran');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('speechStudio.job.open', shared.transcriptionJobId);
  await waitFor(
    'the transcript to open',
    () => vscode.window.activeTextEditor?.document.uri.fsPath === workspaceFile('media', 'interview.srt').fsPath,
  );
  await vscode.commands.executeCommand('speechStudio.job.reveal', shared.transcriptionJobId);
  await ui({
    action: 'waitFor',
    selector: '.explorer-folders-view .monaco-list-row.selected:has-text("interview.srt")',
  });
});

test('the status bar shows the port (the address only in its hover) and opens the Jobs view', async () => {
  const studio = await extensionApi();
  const port = new URL(studio.baseUrl!).port;
  await ui({ action: 'waitFor', selector: `.statusbar-item:has-text("${port}")` });
  const { texts } = await ui({ action: 'texts', selector: `.statusbar-item:has-text("${port}")` });
  assert.ok(
    !(texts as string[]).some((text) => text.includes('127.0.0.1')),
    `the address takes no status-bar room: ${JSON.stringify(texts)}`,
  );
  await vscode.commands.executeCommand('workbench.view.explorer');
  await ui({ action: 'click', selector: `.statusbar-item:has-text("${port}")` });
  await ui({ action: 'waitFor', selector: '.part.sidebar .monaco-list-row:has-text("The second paragraph")' });
});

test('the command palette lists the Speech Studio commands', async () => {
  // The palette's list is virtual: with more commands than rows on screen, each is looked up by its title.
  for (const title of [
    'Transcribe Media File…',
    'Narrate Selection',
    'Choose Voice…',
    'Install Model…',
    'Show Jobs',
    'Export Audiobook…',
    'Read Document Aloud',
  ]) {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.quickOpen', `>Speech Studio: ${title}`);
    try {
      await ui({ action: 'waitFor', selector: `.quick-input-widget .monaco-list-row:has-text("${title}")` });
    } catch (error) {
      const { texts } = await ui({ action: 'texts', selector: '.quick-input-widget .monaco-list-row' });
      throw new Error(`"${title}" is not in the palette, which shows: ${JSON.stringify(texts)} (${String(error)})`, {
        cause: error,
      });
    }
  }
  await vscode.commands.executeCommand('workbench.action.quickOpen', '>Speech Studio: ');
  await ui({ action: 'waitFor', selector: '.quick-input-widget .monaco-list-row:has-text("Speech Studio")' });
  await screenshot('command-palette');
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
});

test('the explorer context menu offers Transcribe Media File… on a media file', async () => {
  await vscode.commands.executeCommand('revealInExplorer', workspaceFile('media', 'interview.wav'));
  await ui({
    action: 'click',
    button: 'right',
    selector: '.explorer-folders-view .monaco-list-row:has-text("interview.wav")',
  });
  await ui({ action: 'waitFor', selector: '.monaco-menu .action-label:has-text("Transcribe Media File…")' });
  await screenshot('explorer-context-menu');
  await ui({ action: 'press', key: 'Escape' });
});
