/**
 * Ctrl+C (SIGINT) and SIGTERM of a running command, sent to a real CLI process once its work has visibly begun:
 * `voices clone` removes its staging folder and saves no voice, `audiobook --cast auto` cancels the casting;
 * both end with the exit code of the signal (130 for SIGINT, 143 for SIGTERM), as shells expect.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CLI, waitFor } from '../helpers/server';
import { useWorkDirs } from '../helpers/temp';
import { testModel } from '../helpers/test-models';
import { TINY_LLM_NAME, tinyLlmModel } from '../helpers/tiny-llm';
import { installSyntheticZipVoice } from '../helpers/zipvoice-model';

const newDir = useWorkDirs('speech-cancel-signals-');

interface Started {
  output(): string;
  kill(signal: NodeJS.Signals): void;
  exited: Promise<number | string>;
}

function start(args: string[]): Started {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return {
    output: () => output,
    kill: (signal) => child.kill(signal),
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1))),
  };
}

const EXIT_CODES = [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const;

describe('voices clone cancelled by a signal', () => {
  for (const [signal, code] of EXIT_CODES) {
    it(`${signal}: exit ${code}, no staging folder left, no voice saved`, async () => {
      const data = path.join(await newDir(), 'data');
      installSyntheticZipVoice(data);
      const ttsDir = path.join(data, 'models', 'tts');
      const staging = async (): Promise<string[]> =>
        (await readdir(ttsDir).catch(() => [] as string[])).filter((name) => name.startsWith('.staging-'));
      const before = await readdir(ttsDir);
      const clone = start([
        'voices',
        'clone',
        testModel('audio/jfk.wav'),
        '--name',
        'Cancelled',
        '--text',
        'And so my fellow Americans, ask not what your country can do for you.',
        '--yes-consent',
        '--data-dir',
        data,
      ]);
      // The staging folder is made before the engine starts, which takes far longer than a poll.
      await waitFor('the staging folder', staging, (names) => names.length === 1, 60_000);
      clone.kill(signal);
      assert.equal(await clone.exited, code, clone.output());
      assert.match(clone.output(), /Cancelled; no voice was saved/);
      assert.deepEqual(await staging(), []);
      assert.deepEqual((await readdir(ttsDir)).sort(), before.sort(), 'no voice folder was made');
    });
  }
});

describe('audiobook --cast auto cancelled by a signal while the model casts', () => {
  for (const [signal, code] of EXIT_CODES) {
    it(`${signal}: exit ${code}, no book written`, async () => {
      const dir = await newDir();
      const data = path.join(dir, 'data');
      await mkdir(path.join(data, 'models', 'llm'), { recursive: true });
      await copyFile(await tinyLlmModel(), path.join(data, 'models', 'llm', TINY_LLM_NAME));
      // Many quoted lines, so the model is still casting when the signal comes.
      const lines = Array.from(
        { length: 400 },
        (_, i) => `“Line ${i + 1} is spoken here,” said ${i % 2 ? 'Ann' : 'Bob'}.`,
      );
      const chapter = path.join(dir, 'chapter.md');
      await writeFile(chapter, `# The Talk\n\n${lines.join('\n\n')}\n`);
      const out = path.join(dir, 'book.mp3');
      const run = start(['audiobook', chapter, '--out', out, '--format', 'mp3', '--cast', 'auto', '--data-dir', data]);
      await waitFor(
        'a casting progress line',
        async () => run.output(),
        (text) => /Casting the dialogue: \d+%/.test(text),
        120_000,
      );
      run.kill(signal);
      assert.equal(await run.exited, code, run.output());
      assert.doesNotMatch(run.output(), /Cast \d+ quoted lines/, 'the casting did not finish');
      assert.deepEqual((await readdir(dir)).sort(), ['chapter.md', 'data'], 'no book, no cast file');
    });
  }
});
