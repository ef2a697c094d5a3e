/**
 * Read Aloud and Narrate Selection under a cast: with `.speech/cast.json` beside the chapter, a quote the cast
 * gives a character with a voice is read by that voice, the narration around it by the reading's voice (the rule
 * the audiobook uses too, src/cast/cast-voices.ts).
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { CastFile } from '../../src/cast/cast-file';
import type { NarrateResult } from '../../src/editor/commands/narrate-selection';
import type { ReadAloudEvent, ReadAloudStatus } from '../../src/editor/read-aloud/read-aloud';
import type { TtsJobInput } from '../../src/jobs/types';
import { createVoiceLibrary } from '../../src/voices/library';
import { test } from './harness';
import { setting, waitFor } from './helpers';

const CHAPTER = 'Ann opened the door. “Hello there, Bob,” she said.\n\nBob sat down.\n';

test("Read Aloud and Narrate Selection read a quote the cast attributes with its character's voice", async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vscode-cast-reading-'));
  try {
    const library = createVoiceLibrary({ dataDir: setting<string>('dataDirectory') });
    const reading = library.get(setting<string>('tts.defaultVoice'))!.voice;
    // Another ready voice the espeak-ng engine has: the character's.
    const otherEntry = library
      .entries()
      .find(
        (entry) =>
          entry.voice.availability === 'ready' &&
          entry.voice.id !== reading.id &&
          entry.voice.languageCode.startsWith('en') &&
          entry.ref.engine === library.get(reading.id)!.ref.engine,
      )!;
    const other = otherEntry.voice;
    const cast: CastFile = {
      characters: { Ann: { voice: other.id, gender: 'female', age: 'adult' } },
      lines: { 'Hello there, Bob,': { speaker: 'Ann' } },
    };
    await mkdir(path.join(dir, '.speech'));
    await writeFile(path.join(dir, '.speech', 'cast.json'), JSON.stringify(cast));
    const chapter = path.join(dir, 'chapter.md');
    await writeFile(chapter, CHAPTER);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(chapter));

    const first = await vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.document');
    assert.equal(first?.count, 4, 'the quote is a part of its own');
    const status = (): Thenable<ReadAloudStatus> =>
      vscode.commands.executeCommand<ReadAloudStatus>('speechStudio.readAloud.status');
    const audio = await waitFor(
      "the four parts' audio",
      async () => {
        const made = (await status()).events.filter(
          (event): event is Extract<ReadAloudEvent, { type: 'audio' }> => event.type === 'audio',
        );
        return made.length >= 4 ? made : undefined;
      },
      60_000,
    );
    assert.deepEqual(
      audio.slice(0, 4).map((event) => event.voice),
      [reading.name, other.name, reading.name, reading.name],
    );
    await waitFor(
      'the quote to be highlighted',
      async () =>
        (await status()).events.find((event) => event.type === 'highlight' && event.text === '“Hello there, Bob,”'),
      60_000,
    );
    await vscode.commands.executeCommand('speechStudio.readAloud.stop');

    // Narrate Selection on the paragraph at the cursor: one job, the quote in the character's <voice>.
    editor.selection = new vscode.Selection(0, 3, 0, 3);
    const narrated = await vscode.commands.executeCommand<NarrateResult>('speechStudio.narrateSelection', {
      play: false,
    });
    assert.equal(narrated?.job.status, 'succeeded', narrated?.job.error ?? '');
    const input = narrated.job.input as TtsJobInput;
    assert.deepEqual(Object.keys(input.ssml?.voices ?? {}), [other.id]);
    assert.equal(input.ssml?.voices[other.id].engineVoiceId, otherEntry.engineVoiceId);
  } finally {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);
