/**
 * `cli.js audiobook --verify`: every paragraph is heard back; with the test hook that cuts each first take
 * to its first third, every judged paragraph is retaken and the report beside the book (JSON and text) and
 * the CLI's lines say so. Heard by the aligner when no recognizer is installed, by the installed whisper
 * model when there is one (the shared random-weight model: the mechanism, not its accuracy).
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import type { ParagraphTakes } from '../../src/audiobook/book-plan';
import type { TakesReport } from '../../src/audiobook/takes-lines';
import { runCli } from '../helpers/cli';
import { useWorkDirs } from '../helpers/temp';
import { testModel } from '../helpers/test-models';

const workDir = useWorkDirs();
const CORRUPT = { SPEECH_STUDIO_TEST_CORRUPT_FIRST_TAKE: '1' };

// Two paragraphs whose good espeak-ng takes the aligner places whole (espeak is deterministic).
const BOOK = `The harbour master counted them from his window, as he had every morning for thirty years.

By noon the market was loud with voices, and the fish were gone before the bells rang one.
`;

async function readReport(out: string): Promise<{ json: TakesReport; text: string }> {
  return {
    json: JSON.parse(await readFile(`${out}.verify.json`, 'utf8')) as TakesReport,
    text: await readFile(`${out}.verify.txt`, 'utf8'),
  };
}

describe('audiobook --verify', () => {
  let dir: string;
  let manuscript: string;
  before(async () => {
    dir = await workDir();
    manuscript = path.join(dir, 'book.md');
    await writeFile(manuscript, BOOK);
  });

  it('retakes a take the test hook damaged, keeps the good retake and reports every take (aligner, no recognizer installed)', async () => {
    const out = path.join(dir, 'corrupted.m4b');
    const run = await runCli(
      ['audiobook', manuscript, '--out', out, '--verify', '--data-dir', path.join(dir, 'data-a')],
      CORRUPT,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.ok((await stat(out)).size > 0, 'the book was written');
    const { json, text } = await readReport(out);
    assert.match(json.scorer, /espeak-ng alignment/);
    assert.equal(json.threshold, 0.25, "the aligner's default threshold");
    assert.equal(json.retakes, 2);
    assert.equal(json.paragraphs.length, 2);
    for (const paragraph of json.paragraphs) {
      const [first, ...retakes] = paragraph.takes;
      assert.ok(
        first && first.wer > json.threshold,
        `the damaged first take is over the threshold: ${JSON.stringify(paragraph.takes)}`,
      );
      assert.ok(retakes.length >= 1, 'it was retaken');
      assert.equal(first.speed, 1);
      assert.equal(retakes[0].speed, 0.9, 'the retake is made at another speed');
      assert.notEqual(paragraph.kept, 1, 'the damaged take is not kept');
      const kept = paragraph.takes[paragraph.kept - 1];
      assert.equal(kept.wer, Math.min(...paragraph.takes.map((take) => take.wer)), 'the best take is kept');
      assert.ok(paragraph.passed && kept.wer <= json.threshold);
      assert.ok((await stat(paragraph.audio)).size > 0, 'the kept take can be played');
    }
    assert.match(text, /2 paragraphs, 2 retaken, 0 still over the threshold/);
    assert.match(
      text,
      /Chapter 1 "[^"]+", paragraph 1: ok, retaken: take 1 \d+\.\d % at speed 1, take 2 \d+\.\d % at speed 0\.9.*kept take 2/,
    );
    assert.match(
      run.stdout,
      /Verified 2 paragraphs with espeak-ng alignment \(no recognizer installed\): 2 retaken, 0 still over 25\.0 % WER\./,
    );
    assert.match(run.stdout, /paragraph 2: ok, retaken: take 1/);
    assert.ok(run.stdout.includes(`Takes report: ${out}.verify.txt`), run.stdout);
  });

  it('keeps the first take of each paragraph when nothing damaged it, and a re-export reuses the verified takes', async () => {
    const out = path.join(dir, 'clean.m4b');
    const data = path.join(dir, 'data-b');
    const run = await runCli(['audiobook', manuscript, '--out', out, '--verify', '--data-dir', data]);
    assert.equal(run.code, 0, run.stderr);
    const { json } = await readReport(out);
    assert.deepEqual(
      json.paragraphs.map((paragraph: ParagraphTakes) => [paragraph.takes.length, paragraph.kept, paragraph.passed]),
      [
        [1, 1, true],
        [1, 1, true],
      ],
    );
    assert.match(run.stdout, /0 retaken, 0 still over/);

    const again = await runCli(['audiobook', manuscript, '--out', out, '--verify', '--data-dir', data]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /0 paragraphs synthesized, 2 from the cache\./);
    assert.deepEqual(
      (await readReport(out)).json.paragraphs,
      json.paragraphs,
      'the takes come from the cache with the audio',
    );
  });

  it('hears takes with the installed recognizer, and lists a paragraph still over the threshold after its retakes', async () => {
    const data = path.join(dir, 'data-c');
    await mkdir(path.join(data, 'models', 'whisper'), { recursive: true });
    await symlink(
      testModel('whisper', 'ggml-synthetic-random.bin'),
      path.join(data, 'models', 'whisper', 'ggml-synthetic-random.bin'),
    );
    const out = path.join(dir, 'heard.m4b');
    // A threshold of 0 retakes every take with an error; random weights make errors.
    const run = await runCli(
      [
        'audiobook',
        manuscript,
        '--out',
        out,
        '--verify',
        '--verify-threshold',
        '0',
        '--verify-takes',
        '1',
        '--data-dir',
        data,
      ],
      CORRUPT,
    );
    assert.equal(run.code, 0, run.stderr);
    const { json, text } = await readReport(out);
    assert.match(json.scorer, /ggml-synthetic-random\.bin \(speech recognition\)/);
    assert.equal(json.threshold, 0);
    for (const paragraph of json.paragraphs) {
      assert.ok(paragraph.takes.length >= 1 && paragraph.takes.length <= 2, 'at most one retake');
      const kept = paragraph.takes[paragraph.kept - 1];
      assert.equal(kept.wer, Math.min(...paragraph.takes.map((take) => take.wer)));
      assert.equal(paragraph.passed, kept.wer === 0);
      for (const take of paragraph.takes) assert.equal(typeof take.heard, 'string');
    }
    const bad = json.paragraphs.filter((paragraph) => !paragraph.passed);
    assert.ok(bad.length > 0, 'random weights cannot read the book back');
    assert.match(text, /Still bad \(listen to them/);
    assert.match(run.stdout, /STILL BAD/);
  });

  it('refuses verify settings out of range before synthesizing anything', async () => {
    const out = path.join(dir, 'refused.m4b');
    for (const [flags, message] of [
      [['--verify', '--verify-threshold', '1.5'], /--verify-threshold must be a word error rate from 0 to 1/],
      [['--verify', '--verify-takes', '11'], /--verify-takes must be a whole number of retakes from 0 to 10/],
      [['--verify-takes', '2'], /--verify-threshold and --verify-takes go with --verify/],
    ] as const) {
      const run = await runCli([
        'audiobook',
        manuscript,
        '--out',
        out,
        ...flags,
        '--data-dir',
        path.join(dir, 'data-d'),
      ]);
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, message);
    }
    await assert.rejects(stat(out), 'no book was written');
  });
});
