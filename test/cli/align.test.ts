import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli';
import { assertMonotonicCues, parseSrt } from '../helpers/subtitles';
import { tempDir } from '../helpers/temp';
import { testModel } from '../helpers/test-models';

const DEV = (name: string): string => testModel('audio', 'align-dev', name);

describe('cli.js align (no speech-to-text model installed)', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir('speech-cli-align-');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('writes the script timed to the media as SRT, every line kept, cues in order inside the media', async () => {
    const out = path.join(dir, 'dev-a.srt');
    const run = await runCli(['align', DEV('dev-a.wav'), DEV('dev-a.txt'), '--out', out, '--data-dir', path.join(dir, 'data')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Aligned 40 of 40 cues/);
    const cues = parseSrt(await readFile(out, 'utf8'));
    assertMonotonicCues(cues);
    assert.ok(cues.at(-1)!.end <= 118.05);
    const words = (await readFile(DEV('dev-a.txt'), 'utf8')).split(/\s+/).filter(Boolean);
    assert.deepEqual(cues.flatMap((cue) => cue.lines.join(' ').split(/\s+/)), words, 'every word of the script, in order');
  });

  it('names the cues it could not find, and refuses what it cannot read with a usage error', async () => {
    const script = path.join(dir, 'extra.txt');
    const lines = (await readFile(DEV('dev-a.txt'), 'utf8')).split('\n').filter(Boolean);
    await writeFile(script, [...lines.slice(0, 5), 'The quarterly budget review has been moved to Thursday afternoon in the large meeting room.', ...lines.slice(5)].join('\n'));
    const run = await runCli(['align', DEV('dev-a.wav'), script, '--out', path.join(dir, 'extra.vtt'), '--data-dir', path.join(dir, 'data')]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Not found in the media: cue \d+/);
    assert.ok((await readFile(path.join(dir, 'extra.vtt'), 'utf8')).startsWith('WEBVTT'));
    await writeFile(path.join(dir, 'notes.pdf'), 'not a script');
    const bad = await runCli(['align', DEV('dev-a.wav'), path.join(dir, 'notes.pdf'), '--out', path.join(dir, 'x.srt')]);
    assert.equal(bad.code, 2);
    const noOut = await runCli(['align', DEV('dev-a.wav'), DEV('dev-a.txt')]);
    assert.equal(noOut.code, 2);
    assert.match(noOut.stderr, /--out/);
  });
});
