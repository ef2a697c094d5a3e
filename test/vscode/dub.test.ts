import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { DubMediaResult } from '../../src/editor/commands/dub-media';
import { makeTalkingVideo, probeVideoFile } from '../helpers/dub-video';
import { TINY_LLM_NAME, tinyLlmModel } from '../helpers/tiny-llm';
import { test } from './harness';
import { EXTENSION_ID, setting } from './helpers';

/** Translation, narration and the mix of a few cues; the machine running the suite may be loaded many times over. */
const DUB_TIMEOUT_MS = 300_000;

const SCENE = `WEBVTT

00:00:00.500 --> 00:00:03.000
<v Ann>Hello there, how are you?

00:00:03.500 --> 00:00:06.500
<v Bob>Fine, thank you.

`;

/** The language model runtime is in the extension, also installed from its .vsix (scripts/package.mjs). */
function runtimeInstalled(): boolean {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  return (
    extension !== undefined &&
    existsSync(path.join(extension.extensionPath, 'node_modules', 'node-llama-cpp', 'package.json'))
  );
}

test(
  'Dub Media writes a dubbed copy beside the video as a job: the video copied bit for bit, a new default German track',
  async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'vscode-dub-'));
    const installed = path.join(setting<string>('dataDirectory'), 'models', 'llm', TINY_LLM_NAME);
    try {
      await mkdir(path.dirname(installed), { recursive: true });
      await copyFile(await tinyLlmModel(), installed);
      const video = path.join(dir, 'scene.mp4');
      await makeTalkingVideo(video, 8);
      const subtitles = path.join(dir, 'scene.vtt');
      await writeFile(subtitles, SCENE);
      const done = await vscode.commands.executeCommand<DubMediaResult>('speechStudio.dubMedia', {
        input: video,
        to: 'de',
        subtitles,
        mix: 'duck',
      });
      assert.ok(runtimeInstalled(), 'node-llama-cpp is part of the extension, source folder and .vsix alike');
      assert.equal(done?.status, 'succeeded', done?.error ?? '');
      assert.equal(done.output, path.join(dir, 'scene.de.mp4'));
      assert.deepEqual(
        done.result?.speakers.map((speaker) => speaker.label),
        ['Ann', 'Bob'],
      );
      const [original, dubbed] = [await probeVideoFile(video), await probeVideoFile(done.output)];
      assert.equal(dubbed.videoPacketsMd5, original.videoPacketsMd5);
      const audio = dubbed.streams.filter((stream) => stream.codecType === 'audio');
      assert.equal(audio.length, 2);
      assert.equal(audio[0].language, 'ger');
      assert.ok(Math.abs(dubbed.durationSeconds - original.durationSeconds) < 0.1);
    } finally {
      await rm(installed, { force: true });
      await rm(dir, { recursive: true, force: true });
    }
  },
  DUB_TIMEOUT_MS,
);

test('Dub Media refuses a language no voice speaks before any job, and writes nothing', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vscode-dub-'));
  try {
    const video = path.join(dir, 'scene.mp4');
    await makeTalkingVideo(video, 2);
    const subtitles = path.join(dir, 'scene.vtt');
    await writeFile(subtitles, SCENE);
    const done = await vscode.commands.executeCommand<DubMediaResult>('speechStudio.dubMedia', {
      input: video,
      to: 'xx',
      subtitles,
      mix: 'replace',
    });
    assert.equal(done, undefined, 'refused before any job');
    assert.ok(!existsSync(path.join(dir, 'scene.xx.mp4')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
