/**
 * Parsing user text takes time in proportion to the text: the shapes outside probes sent (runs of comments in
 * SSML, unclosed image and voice tags in scripts, `<p>` without `</p>` in TTML, long runs of digits, a lexicon
 * whose entries share a long beginning) each took seconds as backtracking regular expressions or repeated
 * comparisons. Each test checks the result and that 8x the input costs well under 64x the time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyLexicon } from '../../src/lexicon/apply-lexicon';
import { LexiconMatcher } from '../../src/lexicon/lexicon-matcher';
import { readScript } from '../../src/subtitles/script';
import { markdownToSpeech } from '../../src/text/markdown';
import { normalizeText } from '../../src/text/normalize';
import { looksLikeSsml } from '../../src/text/ssml/ssml-plan';
import { growthOf, LINEAR_GROWTH_BOUND } from '../helpers/growth';

const cue = (text: string) => `1\n00:00:01,000 --> 00:00:02,000\n${text}\n`;

function assertLinear<T>(make: (n: number) => T, run: (input: T) => unknown, n: number): void {
  const growth = growthOf(make, run, n);
  const sample = String(make(1)).slice(0, 40);
  assert.ok(
    growth < LINEAR_GROWTH_BOUND,
    `8x the input took ${growth.toFixed(1)}x the time (${JSON.stringify(sample)})`,
  );
}

describe('parsing grows linearly with the text', () => {
  it('tells SSML by its <speak> after any number of comments', () => {
    const comments = (n: number) => '<!---->'.repeat(n);
    assert.equal(looksLikeSsml(`${comments(30)}<speak>Hi</speak>`), true);
    assert.equal(looksLikeSsml(`${comments(30)} plain text`), false);
    assert.equal(looksLikeSsml('<?xml version="1.0"?><!-- a --> <speak>Hi</speak>'), true);
    assert.equal(looksLikeSsml('<!-- never closed <speak>'), false);
    assert.equal(looksLikeSsml('<?xml a>b?><speak>'), false);
    assertLinear((n) => `${comments(n)}x`, looksLikeSsml, 3);
  });

  it('reads Markdown scripts with unclosed images, links, tags and comments', () => {
    for (const shape of ['![', '[', '<v ', '!--<!--']) {
      const script = (n: number) => `Hello there.\n\n${shape.repeat(n)} tail`;
      assert.equal(readScript(script(10), 'md')[0].text, 'Hello there.');
      assertLinear(script, (source) => readScript(source, 'md'), 2000);
    }
  });

  it('reads subtitle cues with unclosed voice tags and TTML paragraphs without an end', () => {
    const vtt = (n: number) => `WEBVTT\n\n00:01.000 --> 00:02.000\nHi ${'<v '.repeat(n)}\n`;
    assert.equal(readScript(vtt(3), 'vtt').length, 1);
    assertLinear(vtt, (source) => readScript(source, 'vtt'), 2000);
    const srt = (n: number) => cue(`Hi ${'[a'.repeat(n)}`);
    assertLinear(srt, (source) => readScript(source, 'srt'), 2000);
    const ttml = (n: number) =>
      `<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s">Hi</p>${'<p>'.repeat(n)}</div></body></tt>`;
    assert.equal(readScript(ttml(3), 'ttml')[0].text, 'Hi');
    assertLinear(ttml, (source) => readScript(source, 'ttml'), 2000);
  });

  it('turns Markdown into speech with unclosed links, long headings and table rows', () => {
    assert.equal(markdownToSpeech('# Title ##'), 'Title.');
    for (const shape of ['[a](b', '![', '**a ', '#' + ' '.repeat(10), '--- ']) {
      const text = (n: number) => `${shape === '--- ' ? '---' : ''}${shape.repeat(n)}x`;
      assertLinear(text, (source) => markdownToSpeech(source), 2000);
    }
  });

  it('normalizes long runs of digits and dotted words, and reads a number past 15 digits digit by digit', () => {
    assert.equal(
      normalizeText('1234567890123456', 'en'),
      'one two three four five six seven eight nine zero one two three four five six',
    );
    assert.doesNotThrow(() => normalizeText('9'.repeat(400), 'en'));
    for (const shape of ['1', 'a.', '1.'])
      assertLinear(
        (n) => shape.repeat(n),
        (text) => normalizeText(text, 'en'),
        2000,
      );
  });

  it('applies a lexicon whose entries share a long beginning, at a cost that does not grow with those entries', () => {
    const prefix = 'alpha '.repeat(30);
    const entries = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ text: `${prefix}end${i}`, say: `said ${i}` }));
    const text = `${prefix}end7 ${'alpha '.repeat(2000)}`;
    assert.equal(applyLexicon(text, entries(400), 'en').text.trim(), `said 7 ${'alpha '.repeat(2000)}`.trim());
    // 8x the entries with the same beginning: one walk down the trie per word either way.
    const growth = growthOf(
      (n) => new LexiconMatcher(entries(n)),
      (matcher) => matcher.matches(text),
      50,
    );
    assert.ok(growth < LINEAR_GROWTH_BOUND / 8, `8x the entries took ${growth.toFixed(1)}x the time`);
  });
});
