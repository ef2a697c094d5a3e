import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli';
import { assertMonotonicCues, parseSrt } from '../helpers/subtitles';
import { tempDir } from '../helpers/temp';
import { testModel } from '../helpers/test-models';
import { scanSubtitles, subtitleFormatOfPath } from '../../src/subtitles/scan';
import { driftedCues, styledSubtitles, withoutTimes } from '../helpers/styled-subtitles';

const DEV = (name: string): string => testModel('audio', 'align-dev', name);

describe('cli.js align (no speech-to-text model installed)', () => {
  let dir: string;
  before(async () => {
    dir = await tempDir('speech-cli-align-');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('writes the script timed to the media as SRT, every line kept, cues in order inside the media', async () => {
    const out = path.join(dir, 'dev-a.srt');
    const run = await runCli([
      'align',
      DEV('dev-a.wav'),
      DEV('dev-a.txt'),
      '--out',
      out,
      '--data-dir',
      path.join(dir, 'data'),
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Aligned 40 of 40 cues/);
    const cues = parseSrt(await readFile(out, 'utf8'));
    assertMonotonicCues(cues);
    assert.ok(cues.at(-1)!.end <= 118.05);
    const words = (await readFile(DEV('dev-a.txt'), 'utf8')).split(/\s+/).filter(Boolean);
    assert.deepEqual(
      cues.flatMap((cue) => cue.lines.join(' ').split(/\s+/)),
      words,
      'every word of the script, in order',
    );
  });

  const truth = async (): Promise<Array<{ start: number; end: number }>> =>
    (
      JSON.parse(await readFile(DEV('dev-a.truth.json'), 'utf8')) as {
        sentences: Array<{ start: number; end: number }>;
      }
    ).sentences;

  for (const [format, name] of [
    ['ass', 'drifted.ass'],
    ['ttml', 'drifted.dfxp'],
    ['sbv', 'drifted.sbv'],
  ] as const) {
    it(`re-times ${name} into ${name}: only the times change, and they are the speech's`, async () => {
      const script = path.join(dir, name);
      const source = styledSubtitles(format, driftedCues(DEV('dev-a-drifted.srt')));
      await writeFile(script, source);
      const out = path.join(dir, `retimed-${name}`);
      const run = await runCli(['align', DEV('dev-a.wav'), script, '--out', out, '--data-dir', path.join(dir, 'data')]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Aligned 40 of 40 cues/);
      const retimed = await readFile(out, 'utf8');
      assert.equal(
        withoutTimes(format, retimed),
        withoutTimes(format, source),
        'styles, override tags, ids and line ends kept',
      );
      const cues = scanSubtitles(retimed, subtitleFormatOfPath(out)!).cues;
      const sentences = await truth();
      const errors = cues.map((cue, i) => Math.abs(cue.start - sentences[i].start)).sort((a, b) => a - b);
      assert.ok(errors[20] < 0.25, `median start error ${errors[20]} s (the drift was 0.8 s and more)`);
    });
  }

  it('writes a script timed to the media as a new ASS, TTML or SBV file, as --out names', async () => {
    const out = path.join(dir, 'dev-a.ass');
    const run = await runCli([
      'align',
      DEV('dev-a.wav'),
      DEV('dev-a.txt'),
      '--out',
      out,
      '--data-dir',
      path.join(dir, 'data'),
    ]);
    assert.equal(run.code, 0, run.stderr);
    const written = scanSubtitles(await readFile(out, 'utf8'), 'ass');
    assert.deepEqual(written.errors, []);
    const words = (await readFile(DEV('dev-a.txt'), 'utf8')).split(/\s+/).filter(Boolean);
    assert.deepEqual(
      written.cues.flatMap((cue) => cue.lines.join(' ').split(/\s+/)),
      words,
      'every word of the script, in order',
    );
  });

  it('names the cues it could not find, and refuses what it cannot read with a usage error', async () => {
    const script = path.join(dir, 'extra.txt');
    const lines = (await readFile(DEV('dev-a.txt'), 'utf8')).split('\n').filter(Boolean);
    await writeFile(
      script,
      [
        ...lines.slice(0, 5),
        'The quarterly budget review has been moved to Thursday afternoon in the large meeting room.',
        ...lines.slice(5),
      ].join('\n'),
    );
    const run = await runCli([
      'align',
      DEV('dev-a.wav'),
      script,
      '--out',
      path.join(dir, 'extra.vtt'),
      '--data-dir',
      path.join(dir, 'data'),
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Not found in the media: cue \d+/);
    assert.ok((await readFile(path.join(dir, 'extra.vtt'), 'utf8')).startsWith('WEBVTT'));
    await writeFile(path.join(dir, 'notes.pdf'), 'not a script');
    const bad = await runCli([
      'align',
      DEV('dev-a.wav'),
      path.join(dir, 'notes.pdf'),
      '--out',
      path.join(dir, 'x.srt'),
    ]);
    assert.equal(bad.code, 2);
    const noOut = await runCli(['align', DEV('dev-a.wav'), DEV('dev-a.txt')]);
    assert.equal(noOut.code, 2);
    assert.match(noOut.stderr, /--out/);
  });
});
