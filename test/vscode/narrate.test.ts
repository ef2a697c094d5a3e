import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import type { NarrateResult } from '../../src/editor/commands/narrate-selection';
import type { SaveNarrationResult } from '../../src/editor/commands/save-narration';
import { test } from './harness';
import { clearNotifications, playerShown, screenshot, ui, waitFor, workspaceFile } from './helpers';

function wavDurationSeconds(wav: Buffer): number {
  assert.equal(wav.subarray(0, 4).toString('latin1'), 'RIFF');
  assert.equal(wav.subarray(8, 12).toString('latin1'), 'WAVE');
  const byteRate = wav.readUInt32LE(28);
  return (wav.length - 44) / byteRate;
}

test('Narrate Selection speaks the paragraph at the cursor and plays it in the player', async () => {
  const document = await vscode.workspace.openTextDocument(workspaceFile('chapter.md'));
  const editor = await vscode.window.showTextDocument(document);
  const line = document
    .getText()
    .split('\n')
    .findIndex((l) => l.startsWith('The second paragraph'));
  editor.selection = new vscode.Selection(line, 5, line, 5);
  const result = await vscode.commands.executeCommand<NarrateResult>('speechStudio.narrateSelection');
  assert.ok(result, 'the command returns its job');
  assert.equal(result.job.status, 'succeeded', result.job.error ?? '');
  assert.match(result.job.name, /^The second paragraph/);
  const seconds = wavDurationSeconds(await readFile(result.audioPath!));
  assert.ok(seconds > 1, `a paragraph takes more than a second to say (got ${seconds})`);
  await playerShown();
  // The player's <audio> element, two iframes deep in the webview, has loaded the narration's length.
  const audio = { frames: ['iframe.webview.ready', 'iframe#active-frame'], selector: 'audio' };
  await ui({ action: 'waitFor', ...audio });
  const duration = await waitFor('the player to load the audio', async () => {
    const { value } = await ui({ action: 'property', name: 'duration', ...audio });
    return typeof value === 'number' && value > 0 ? value : undefined;
  }).catch(async (error: unknown) => {
    const element = Object.fromEntries(
      await Promise.all(
        ['readyState', 'networkState', 'currentSrc'].map(async (name) => [
          name,
          (await ui({ action: 'property', name, ...audio })).value,
        ]),
      ),
    );
    throw new Error(`${String(error)}; the <audio> element: ${JSON.stringify(element)}`);
  });
  assert.ok(Math.abs(duration - seconds) < 0.1, `the player has the narration (${duration} s, the file ${seconds} s)`);
  await screenshot('narrate-selection', { keepNotifications: true });
});

test('Narrate Selection speaks exactly the selected text', async () => {
  const editor = vscode.window.activeTextEditor!;
  const line = editor.document.lineAt(0);
  editor.selection = new vscode.Selection(0, 2, 0, line.text.length);
  const result = await vscode.commands.executeCommand<NarrateResult>('speechStudio.narrateSelection', { play: false });
  assert.equal(result?.job.status, 'succeeded');
  assert.equal(result.job.name, line.text.slice(2).trim());
});

const probe = async (file: string): Promise<{ format: string; codec: string; seconds: number }> => {
  const { stdout } = await promisify(execFile)('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=format_name,duration:stream=codec_name',
    '-of',
    'json',
    file,
  ]);
  const parsed = JSON.parse(stdout) as {
    format: { format_name: string; duration?: string };
    streams: { codec_name: string }[];
  };
  return {
    format: parsed.format.format_name,
    codec: parsed.streams[0]?.codec_name ?? '',
    seconds: Number(parsed.format.duration ?? 0),
  };
};

test('Save Narration As writes the format the file name asks for, encoded by the engine (ffprobe)', async () => {
  const narrated = await vscode.commands.executeCommand<NarrateResult>('speechStudio.narrateSelection', {
    text: 'Saved in every format the name asks for.',
    play: false,
  });
  assert.equal(narrated?.job.status, 'succeeded', narrated?.job.error ?? '');
  const dir = await mkdtemp(path.join(tmpdir(), 'save-narration-'));
  try {
    const expected: Record<string, { format: RegExp; codec: string }> = {
      wav: { format: /^wav$/, codec: 'pcm_s16le' },
      mp3: { format: /^mp3$/, codec: 'mp3' },
      m4a: { format: /mp4|m4a/, codec: 'aac' },
      aac: { format: /^aac$/, codec: 'aac' },
      flac: { format: /^flac$/, codec: 'flac' },
      ogg: { format: /^ogg$/, codec: 'opus' },
    };
    for (const [extension, wanted] of Object.entries(expected)) {
      const target = path.join(dir, `x.${extension}`);
      const saved = await vscode.commands.executeCommand<SaveNarrationResult>('speechStudio.saveNarrationAs', {
        jobId: narrated.job.id,
        target,
      });
      assert.equal(saved?.file, target, `saved as ${extension}`);
      const found = await probe(target);
      assert.match(found.format, wanted.format, `${extension}: ${found.format}`);
      assert.equal(found.codec, wanted.codec, extension);
      assert.ok(found.seconds > 1, `${extension}: ${found.seconds} s of speech`);
    }
    assert.deepEqual(
      (await readdir(dir)).sort(),
      ['x.aac', 'x.flac', 'x.m4a', 'x.mp3', 'x.ogg', 'x.wav'],
      'nothing else, no x.mp3.wav',
    );
    const refused = await vscode.commands.executeCommand<SaveNarrationResult>('speechStudio.saveNarrationAs', {
      jobId: narrated.job.id,
      target: path.join(dir, 'x.txt'),
    });
    assert.equal(refused, undefined, 'an extension it cannot write is refused, not renamed');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 180_000);

test("Save Narration As on the player's title bar: a name cut at a word boundary is suggested, and typing x.mp3 gives an mp3", async () => {
  const text = 'It was a bright cold day in April, and the clocks were striking thirteen.';
  const narrated = await vscode.commands.executeCommand<NarrateResult>('speechStudio.narrateSelection', { text });
  assert.equal(narrated?.job.status, 'succeeded');
  await playerShown();
  // The player's own Save As button saves what it plays.
  await clearNotifications();
  await ui({ action: 'click', selector: '.part.panel .action-label[aria-label^="Save Narration As"]' });
  const input = '.quick-input-widget input';
  await ui({ action: 'waitFor', selector: input });
  const suggested = await waitFor<string>('the suggested name', async () => {
    const { value } = await ui({ action: 'property', name: 'value', selector: input });
    return typeof value === 'string' && value.endsWith('.wav') ? value : undefined;
  });
  assert.equal(path.basename(suggested), 'It was a bright cold day in April and.wav');
  const target = workspaceFile('typed.mp3').fsPath;
  await ui({ action: 'press', key: 'Control+a' });
  await ui({ action: 'type', selector: input, text: target });
  await ui({ action: 'press', key: 'Enter' });
  try {
    // The button's command returns to VS Code, not to the test: the file is waited for (ffprobe fails until it is whole).
    assert.equal(await waitFor('typed.mp3, probed', async () => (await probe(target)).codec, 60_000), 'mp3');
  } finally {
    await rm(target, { force: true });
  }
}, 120_000);
