/**
 * Admission of verified takes: the threshold and retakes checked, the test hook as the entries read it and hand it down;
 * and the report's lines. The scorer chosen from what is installed (it reads a real model file) is tested in
 * test/models/installed-stt-models.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ParagraphTakes } from '../../src/audiobook/book-plan';
import { paragraphLine, takesReportText } from '../../src/audiobook/takes-lines';
import { takeSpeed } from '../../src/engine/book/verified-take';
import { CORRUPT_FIRST_TAKE_ENV, testHooksFromEnvironment } from '../../src/config/test-hooks';
import { admitVerify } from '../../src/jobs/verify-admission';
import { useWorkDirs } from '../helpers/temp';

const workDir = useWorkDirs();

describe('verified takes admission', () => {
  it('refuses a threshold outside 0–1 and retakes that are not a whole number up to 10, in one sentence', async () => {
    const dir = await workDir();
    await assert.rejects(
      admitVerify({ threshold: 1.5 }, dir, 'en'),
      /verify threshold is a word error rate from 0 to 1/,
    );
    await assert.rejects(admitVerify({ threshold: Number.NaN }, dir, 'en'), /from 0 to 1/);
    await assert.rejects(admitVerify({ retakes: 11 }, dir, 'en'), /whole number from 0 to 10, not 11/);
    await assert.rejects(admitVerify({ retakes: 1.5 }, dir, 'en'), /whole number/);
  });

  it('sets the test hook only when its variable is 1', async () => {
    const dir = await workDir();
    const hooks = (value: string | undefined) => testHooksFromEnvironment({ [CORRUPT_FIRST_TAKE_ENV]: value });
    assert.equal((await admitVerify({}, dir, 'en', hooks('1'))).corruptFirstTake, true);
    assert.equal((await admitVerify({}, dir, 'en', hooks('yes'))).corruptFirstTake, undefined);
    assert.equal((await admitVerify({}, dir, 'en', hooks(undefined))).corruptFirstTake, undefined);
  });

  it('never reads the test hook from the environment itself', async () => {
    const dir = await workDir();
    process.env[CORRUPT_FIRST_TAKE_ENV] = '1';
    try {
      assert.equal((await admitVerify({}, dir, 'en')).corruptFirstTake, undefined);
    } finally {
      delete process.env[CORRUPT_FIRST_TAKE_ENV];
    }
  });

  it("varies the speed of each retake around the reading's own", () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((take) => takeSpeed(1, take)),
      [1, 0.9, 1.1, 0.85, 1.15, 1],
    );
    assert.equal(takeSpeed(1.2, 2), 1.08);
  });

  it('writes a line per paragraph: kept take, every take when retaken, still bad, not verified', () => {
    const base = {
      chapter: 2,
      chapterTitle: 'The Market',
      paragraph: 3,
      text: 'By noon the market was loud.',
      audio: '/cache/x.wav',
    };
    const retaken: ParagraphTakes = {
      ...base,
      takes: [
        { take: 1, wer: 0.5, speed: 1, heard: 'by noon' },
        { take: 2, wer: 0, speed: 0.9, heard: 'by noon the market was loud' },
      ],
      kept: 2,
      passed: true,
    };
    assert.equal(
      paragraphLine(retaken),
      'Chapter 2 "The Market", paragraph 3: ok, retaken: take 1 50.0 % at speed 1, take 2 0.0 % at speed 0.9; kept take 2 (WER 0.0 %).',
    );
    const bad: ParagraphTakes = {
      ...base,
      takes: [{ take: 1, wer: 0.4, speed: 1, heard: '' }],
      kept: 1,
      passed: false,
    };
    assert.equal(paragraphLine(bad), 'Chapter 2 "The Market", paragraph 3: STILL BAD, take 1, WER 40.0 %.');
    assert.equal(
      paragraphLine({ ...base, takes: [], kept: 1, passed: true, skipped: 'SSML markup is not the words said' }),
      'Chapter 2 "The Market", paragraph 3: not verified (SSML markup is not the words said).',
    );
    const text = takesReportText({ scorer: 'whisper', threshold: 0.1, retakes: 2, paragraphs: [retaken, bad] });
    assert.match(
      text,
      /^Verified takes, heard by whisper; a take over 10\.0 % word error rate is retaken up to 2 times\.\n2 paragraphs, 1 retaken, 1 still over the threshold\./,
    );
    assert.match(
      text,
      /Still bad \(listen to them, then edit the text or the lexicon\):\nChapter 2 "The Market", paragraph 3: "By noon the market was loud\."/,
    );
  });
});
