import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { runCli } from '../helpers/cli';
import { CLI } from '../helpers/server';
import { parseSrt, parseVtt } from '../helpers/subtitles';
import { tempDir } from '../helpers/temp';
import { TINY_LLM_NAME, tinyLlmModel } from '../helpers/tiny-llm';

const SOURCE_SRT = `1
00:00:01,000 --> 00:00:03,500
And so, my fellow Americans,

2
00:00:03,600 --> 00:00:05,000
ask not what your country can do for you,

3
00:00:05,100 --> 00:00:09,000
ask what you can do for your country.

`;

const SOURCE_VTT = `WEBVTT

00:00:00.500 --> 00:00:02.000
<v Ann>Hello there.

00:00:02.500 --> 00:00:06.000
<v Bob>Nice to see you again, after all these years.

`;

describe('cli.js translate (the tiny random GGUF model, through the job core and the engine)', () => {
  let dir: string;
  let dataDir: string;
  before(async () => {
    dir = await tempDir('speech-cli-translate-');
    dataDir = path.join(dir, 'data');
    await mkdir(path.join(dataDir, 'models', 'llm'), { recursive: true });
    await copyFile(await tinyLlmModel(), path.join(dataDir, 'models', 'llm', TINY_LLM_NAME));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('writes a well-formed SRT beside the source: the same cues at the same times, lines within the style', async () => {
    const input = path.join(dir, 'talk.srt');
    await writeFile(input, SOURCE_SRT);
    const run = await runCli(['translate', input, '--to', 'de', '--data-dir', dataDir]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Wrote .*talk\.de\.srt: 3 cues translated with tiny-random-llama\.gguf/);
    const source = parseSrt(SOURCE_SRT);
    const translated = parseSrt(await readFile(path.join(dir, 'talk.de.srt'), 'utf8'));
    assert.deepEqual(
      translated.map((cue) => [cue.start, cue.end]),
      source.map((cue) => [cue.start, cue.end]),
    );
    for (const cue of translated) {
      assert.ok(cue.lines.length >= 1 && cue.lines.length <= 2, `cue lines: ${JSON.stringify(cue.lines)}`);
      assert.ok(
        cue.lines.every((line) => line.trim() !== '' && !/\p{Cc}/u.test(line)),
        `no empty line, no control character: ${JSON.stringify(cue.lines)}`,
      );
    }
    // Every cue is either within the reading speed or named as too fast.
    const flagged = new Set([...run.stdout.matchAll(/Cue (\d+) reads too fast/g)].map((m) => Number(m[1])));
    translated.forEach((cue, i) => {
      const chars = Array.from(cue.lines.join(' ')).length;
      if (chars / (cue.end - cue.start) > 17 + 1e-9)
        assert.ok(flagged.has(i + 1), `cue ${i + 1} reads too fast and is not flagged`);
    });
    assert.ok(!existsSync(path.join(dir, 'talk.de.srt.partial')));
  });

  it('keeps WebVTT voices and times, writing where --out says', async () => {
    const input = path.join(dir, 'scene.vtt');
    const out = path.join(dir, 'out', 'scene.fr.vtt');
    await mkdir(path.dirname(out));
    await writeFile(input, SOURCE_VTT);
    const run = await runCli(['translate', input, '--to', 'fr', '--from', 'en', '--out', out, '--data-dir', dataDir]);
    assert.equal(run.code, 0, run.stderr);
    const body = await readFile(out, 'utf8');
    const cues = parseVtt(body);
    assert.deepEqual(
      cues.map((cue) => [cue.start, cue.end]),
      [
        [0.5, 2],
        [2.5, 6],
      ],
    );
    assert.match(body, /<v Ann>/);
    assert.match(body, /<v Bob>/);
  });

  it('refuses what it cannot translate with one sentence, writing nothing', async () => {
    const input = path.join(dir, 'talk.srt');
    await writeFile(input, SOURCE_SRT);
    const noModel = await runCli([
      'translate',
      input,
      '--to',
      'de',
      '--out',
      path.join(dir, 'x.de.srt'),
      '--data-dir',
      path.join(dir, 'empty'),
    ]);
    assert.equal(noModel.code, 1);
    assert.match(noModel.stderr, /No language model is installed/);
    const badTag = await runCli(['translate', input, '--to', 'not a tag', '--data-dir', dataDir]);
    assert.equal(badTag.code, 1);
    assert.match(badTag.stderr, /must be a known language tag such as de/);
    const same = await runCli(['translate', input, '--to', 'de', '--out', input, '--data-dir', dataDir]);
    assert.match(same.stderr, /would replace the input/);
    await writeFile(path.join(dir, 'broken.srt'), '1\nnot a time\nhello\n\n');
    const broken = await runCli(['translate', path.join(dir, 'broken.srt'), '--to', 'de', '--data-dir', dataDir]);
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /broken\.srt: /);
    // A damaged model claiming 2^60 tensors is refused from its header, not handed to llama.cpp.
    const hostile = Buffer.alloc(64);
    hostile.write('GGUF', 0, 'latin1');
    hostile.writeUInt32LE(3, 4);
    hostile.writeBigUInt64LE(2n ** 60n, 8);
    await writeFile(path.join(dir, 'hostile.gguf'), hostile);
    const damaged = await runCli([
      'translate',
      input,
      '--to',
      'de',
      '--out',
      path.join(dir, 'x.de.srt'),
      '--model',
      path.join(dir, 'hostile.gguf'),
      '--data-dir',
      dataDir,
    ]);
    assert.equal(damaged.code, 1);
    assert.match(damaged.stderr, /hostile\.gguf cannot be used: its header claims 1152921504606846976 tensors/);
    const usage = await runCli(['translate', input, '--data-dir', dataDir]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /needs --to/);
    assert.ok(!existsSync(path.join(dir, 'x.de.srt')));
  });

  it('is cancelled by Ctrl+C once it runs: exit 130, no translation and no partial file left', async () => {
    const input = path.join(dir, 'long.srt');
    const cues = Array.from(
      { length: 40 },
      (_, i) =>
        `${i + 1}\n00:00:${String(i).padStart(2, '0')},000 --> 00:00:${String(i).padStart(2, '0')},900\nLine number ${i + 1} of a long talk.\n`,
    );
    await writeFile(input, `${cues.join('\n')}\n`);
    const child = spawn(process.execPath, [CLI, 'translate', input, '--to', 'de', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        // Interrupted once the engine translates: the job is running, not merely queued.
        if (/\(translating\)/.test(output)) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
      void exited.then(() => reject(new Error(`ended before translating:\n${output}`)));
    });
    child.kill('SIGINT');
    assert.equal(await exited, 130, output);
    assert.match(output, /Cancelled; no translation was written/);
    assert.ok(!existsSync(path.join(dir, 'long.de.srt')));
    assert.ok(!existsSync(path.join(dir, 'long.de.srt.partial')));
  });
});
