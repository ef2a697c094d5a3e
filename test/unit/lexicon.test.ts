import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LexiconEntry } from '../../src/contract/types';
import { applyLexicon, entriesIn, espeakPhonemes } from '../../src/lexicon/apply-lexicon';
import { lexiconForEngine } from '../../src/lexicon/engine-lexicon';
import { validateLexicon } from '../../src/lexicon/lexicon-validation';

describe('applyLexicon', () => {
  it('replaces whole words only, ignoring case unless the entry is case-sensitive', () => {
    const entries = [
      { text: 'Koa', say: 'koh ah' },
      { text: 'US', say: 'you ess', caseSensitive: true },
    ];
    const { text, report } = applyLexicon('Koa and koa, not Koala; US and us.', entries, 'en-US');
    assert.equal(text, 'koh ah and koh ah, not Koala; you ess and us.');
    assert.deepEqual(report, { applied: ['Koa', 'US'], skipped: [] });
  });

  it('prefers the longer entry, matches phrases across any spacing and never replaces inside a replacement', () => {
    const entries = [
      { text: 'York', say: 'yorrk' },
      { text: 'New York', say: 'noo york' },
      { text: 'noo', say: 'nope' },
    ];
    assert.equal(applyLexicon('New\n York and York.', entries, 'en').text, 'noo york and yorrk.');
  });

  it('applies an entry only to jobs in its language (en covers en-US)', () => {
    const entries = [
      { text: 'Paris', say: 'pa ree', language: 'fr' },
      { text: 'Leeds', say: 'leads', language: 'en' },
    ];
    assert.equal(applyLexicon('Paris, Leeds', entries, 'en-GB').text, 'Paris, leads');
    assert.equal(applyLexicon('Paris, Leeds', entries, 'fr-FR').text, 'pa ree, Leeds');
  });

  it('writes phonemes for an engine that takes them, else says the respelling, else skips the entry', () => {
    const entries = [
      { text: 'GIF', phonemes: 'dZIf', alphabet: 'espeak' as const, say: 'jif' },
      { text: 'SQL', phonemes: 'sikw@L', alphabet: 'espeak' as const },
    ];
    assert.equal(applyLexicon('GIF and SQL', entries, 'en', espeakPhonemes).text, '[[dZIf]] and [[sikw@L]]');
    const plain = applyLexicon('GIF and SQL', entries, 'en');
    assert.equal(plain.text, 'jif and SQL');
    assert.deepEqual(plain.report.applied, ['GIF']);
    assert.deepEqual(
      plain.report.skipped.map((s) => s.text),
      ['SQL'],
    );
  });

  it('keeps only the entries found in a text for a job, and reports over every piece of the job', () => {
    const entries = [
      { text: 'Koa', say: 'koh ah' },
      { text: 'GIF', phonemes: 'dZIf', alphabet: 'espeak' as const },
    ];
    assert.deepEqual(entriesIn('a koa here', entries), [entries[0]]);
    const job = lexiconForEngine(entries, 'en-US', 'sherpa-onnx');
    assert.equal(job.apply('Koa.'), 'koh ah.');
    assert.equal(job.apply('GIF.'), 'GIF.');
    assert.deepEqual(job.report(), {
      applied: ['Koa'],
      skipped: [{ text: 'GIF', reason: 'sherpa-onnx takes no phonemes and the entry has no say' }],
    });
    assert.equal(lexiconForEngine(undefined, 'en', 'espeak-ng').report(), undefined);
  });
});

describe('validateLexicon', () => {
  const bad = (entries: unknown[]): string => {
    const checked = validateLexicon({ entries });
    assert.equal(checked.ok, false);
    return (checked as { message: string }).message;
  };

  it('accepts the documented example and names the bad entry of a bad document', () => {
    assert.equal(
      validateLexicon({
        entries: [
          { text: 'Koa', say: 'koh ah' },
          { text: 'GIF', phonemes: 'dZIf', alphabet: 'espeak' },
        ],
      }).ok,
      true,
    );
    const ok = { text: 'Koa', say: 'koh ah' };
    assert.equal(bad([ok, { text: 'x'.repeat(201), say: 'y' }]), 'entries[1].text: must be 1 to 200 characters');
    assert.equal(
      bad([ok, { text: 'a', say: 'b' }, { text: 'c', say: 'd' }, { text: 'Koa2' }]),
      'entries[3]: needs say (a respelling) or phonemes',
    );
    assert.equal(
      bad([{ text: 'GIF', phonemes: 'dZIf' }]),
      'entries[0].alphabet: is required with phonemes; use "espeak"',
    );
    assert.equal(
      bad([{ text: 'GIF', phonemes: 'dZ]]<x', alphabet: 'espeak' }]),
      'entries[0].phonemes: must not contain any of [ ] < > &',
    );
    assert.equal(
      bad([{ text: 'GIF', phonemes: 'dZIf', alphabet: 'ipa' }]),
      'entries[0].alphabet: must be one of "espeak"',
    );
    assert.equal(bad([ok, { text: 'Koa', say: 'x', sound: 1 }]), 'entries[1].sound: is not a known field');
    assert.equal(bad([ok, { text: ' koa ', say: 'x' }]), 'entries[1].text: " koa " is already entries[0]');
    assert.equal(bad([{ text: '...', say: 'x' }]), 'entries[0].text: must contain a letter or a digit');
    assert.equal(validateLexicon([]).ok, false);
  });
});

describe('the lexicon matcher (issue 24 #2)', () => {
  const scanned = (text: string, entries: LexiconEntry[]) => applyLexicon(text, entries, 'en');

  it('matches entries that start or end with a non-word character, multi-word entries across any spacing, and folded case', () => {
    const entries: LexiconEntry[] = [
      { text: '.NET', say: 'dot net', caseSensitive: false },
      { text: 'C++', say: 'see plus plus', caseSensitive: false },
      { text: 'New  York City', say: 'the big apple', caseSensitive: false },
      { text: 'Straße', say: 'street', caseSensitive: false },
      { text: '&', say: 'and', caseSensitive: false },
    ];
    const result = scanned('I write .net and C++ in new\nyork   city, STRAẞE & more; xC++ and C++x stay.', entries);
    assert.equal(
      result.text,
      'I write dot net and see plus plus in the big apple, street and more; xC++ and C++x stay.',
    );
  });

  it('gives the same text as one scan per entry would, longer entries first, on a long text with many entries', () => {
    const words = Array.from({ length: 300 }, (_, index) => `w${index}`);
    const entries: LexiconEntry[] = [
      ...words.map((word, index) => ({ text: word, say: `s${index}`, caseSensitive: false })),
      ...words
        .slice(0, 60)
        .map((word, index) => ({ text: `${word} ${words[index + 1]}`, say: `pair${index}`, caseSensitive: false })),
    ];
    const text = Array.from({ length: 4000 }, (_, index) => words[(index * 7) % 97]).join(' ');
    const expected = slowApply(text, entries);
    assert.equal(scanned(text, entries).text, expected);
    assert.deepEqual(
      entriesIn(text, entries).length,
      new Set(entries.filter((entry) => pattern(entry).test(text)).map((entry) => entry.text)).size,
    );
  });
});

// The reference: one global scan per entry, longest first (the rule the matcher must keep).
function pattern(entry: LexiconEntry): RegExp {
  const words = entry.text
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(
    `(?<![\\p{L}\\p{N}\\p{M}_])${words.join('\\s+')}(?![\\p{L}\\p{N}\\p{M}_])`,
    entry.caseSensitive ? 'gu' : 'giu',
  );
}
function slowApply(text: string, entries: LexiconEntry[]): string {
  const ordered = entries
    .map((entry, order) => ({ entry, order }))
    .sort((a, b) => b.entry.text.length - a.entry.text.length || a.order - b.order);
  const used = new Uint8Array(text.length);
  const taken: { start: number; end: number; say: string }[] = [];
  for (const { entry } of ordered) {
    for (const match of text.matchAll(pattern(entry))) {
      const end = match.index + match[0].length;
      if (used.subarray(match.index, end).includes(1)) continue;
      used.fill(1, match.index, end);
      taken.push({ start: match.index, end, say: entry.say ?? '' });
    }
  }
  taken.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const span of taken) {
    out += text.slice(at, span.start) + span.say;
    at = span.end;
  }
  return out + text.slice(at);
}
