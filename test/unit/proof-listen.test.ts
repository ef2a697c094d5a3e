import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alignTokens, type AlignOp } from '../../src/proof-listen/align';
import { proofListen, type Finding } from '../../src/proof-listen/findings';
import { sourceWords, spokenTokens, type TimedWord } from '../../src/proof-listen/spoken-words';

/** A constructed transcript: each word 0.5 s from the last, 0.4 s long. */
const heard = (text: string): TimedWord[] =>
  text
    .split(/\s+/)
    .filter(Boolean)
    .map((word, i) => ({ text: ` ${word}`, start: i * 0.5, end: i * 0.5 + 0.4 }));

const check = (source: string, transcript: string, kind: 'plain' | 'markdown' = 'plain'): Finding[] =>
  proofListen(source, kind, kind, 'en-US', heard(transcript)).findings;

/** Findings without their times, as [kind, written, heard, source slice]. */
const brief = (source: string, findings: Finding[]): Array<[string, string, string, string]> =>
  findings.map((f) => [f.kind, f.written, f.heard, source.slice(f.start, f.end)]);

/** The cost of an alignment (each op that is not a match costs 1), after checking it uses every index once, in order. */
function costOf(ops: AlignOp[], a: readonly string[], b: readonly string[]): number {
  const as = ops.flatMap((op) => (op.type === 'insert' ? [] : [op.a]));
  const bs = ops.flatMap((op) => (op.type === 'delete' ? [] : [op.b]));
  assert.deepEqual(
    as,
    a.map((_, i) => i),
    'every written token once, in order',
  );
  assert.deepEqual(
    bs,
    b.map((_, i) => i),
    'every heard token once, in order',
  );
  for (const op of ops) if (op.type === 'match') assert.equal(a[op.a], b[op.b]);
  for (const op of ops) if (op.type === 'substitute') assert.notEqual(a[op.a], b[op.b]);
  return ops.filter((op) => op.type !== 'match').length;
}

/** Deterministic pseudo-random words (a small vocabulary, so words repeat as in prose). */
function words(count: number, seed: number): string[] {
  let state = seed;
  const next = (): number => (state = (state * 1103515245 + 12345) % 2147483648);
  const vocabulary = [
    'the',
    'a',
    'cat',
    'sat',
    'on',
    'mat',
    'and',
    'then',
    'it',
    'ran',
    'far',
    'away',
    'from',
    'home',
    'to',
    'sea',
    'of',
    'light',
    'night',
    'day',
  ];
  return Array.from({ length: count }, () => vocabulary[next() % vocabulary.length]);
}

describe('proof-listen: spoken tokens', () => {
  it('normalizes case, punctuation, apostrophes, hyphens, and numbers as they are spoken', () => {
    assert.deepEqual(spokenTokens('Hello,', 'en-US'), ['hello']);
    assert.deepEqual(spokenTokens('"Don\'t!"', 'en-US'), ['dont']);
    assert.deepEqual(spokenTokens('twenty-four', 'en-US'), ['twenty', 'four']);
    assert.deepEqual(spokenTokens('$12.50', 'en-US'), ['twelve', 'dollars', 'and', 'fifty', 'cents']);
    assert.deepEqual(spokenTokens('12', 'en-US'), ['twelve']);
    assert.deepEqual(spokenTokens('—', 'en-US'), []);
  });

  it('keeps digits in languages the normalizer does not expand', () => {
    assert.deepEqual(spokenTokens('12,', 'de-DE'), ['12']);
  });

  it('reads Markdown as the narrator does and gives each token the range of its word without punctuation', () => {
    const md = '# Title\n\nSome **bold** [link](http://x.org) text.\n\n```\ncode here\n```\n';
    const { tokens, narration } = sourceWords(md, 'markdown', 'markdown', 'en-US');
    assert.deepEqual(
      tokens.map((t) => t.token),
      ['title', 'some', 'bold', 'link', 'text'],
    );
    assert.deepEqual(
      tokens.map((t) => md.slice(t.start, t.end)),
      ['Title', 'Some', 'bold', 'link', 'text'],
    );
    const quoted = '("Quoted," she said.) 10% off!';
    assert.deepEqual(
      sourceWords(quoted, 'plain', '', 'en').tokens.map((t) => [t.text, quoted.slice(t.start, t.end)]),
      [
        ['Quoted', 'Quoted'],
        ['she', 'she'],
        ['said', 'said'],
        ['10%', '10%'],
        ['10%', '10%'],
        ['off', 'off'],
      ],
    );
    assert.equal(narration, 'Title\nSome bold link text.');
  });

  it('limits the source to a range (a selection)', () => {
    const text = 'One two. Three four. Five six.';
    assert.deepEqual(
      sourceWords(text, 'plain', '', 'en', 9, 20).tokens.map((t) => t.token),
      ['three', 'four'],
    );
  });
});

describe('proof-listen: alignment', () => {
  it('matches, deletes, substitutes and inserts with the least edits', () => {
    assert.deepEqual(
      alignTokens(['a', 'b', 'c'], ['a', 'c', 'd']).map((op) => op.type),
      ['match', 'delete', 'match', 'insert'],
    );
    assert.deepEqual(
      alignTokens(['a', 'b', 'c'], ['a', 'x', 'c']).map((op) => op.type),
      ['match', 'substitute', 'match'],
    );
    assert.deepEqual(alignTokens([], ['a']), [{ type: 'insert', b: 0 }]);
    assert.deepEqual(alignTokens(['a'], []), [{ type: 'delete', a: 0 }]);
    assert.deepEqual(alignTokens([], []), []);
  });

  it('refuses a window too small to make progress', () => {
    assert.throws(() => alignTokens(['a'], ['a'], { window: 2 }), TypeError);
  });

  it('in windows, finds as few edits as one whole alignment on lightly edited prose', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const a = words(1500, seed);
      const b = [...a];
      const edits = words(30, seed + 100);
      // Scattered edits: substitutions, deletions and insertions far apart.
      for (let k = 0; k < 30; k++) {
        const at = 40 + k * 48;
        if (k % 3 === 0) b[at] = `x${k}`;
        else if (k % 3 === 1) b.splice(at, 1);
        else b.splice(at, 0, `y${edits[k]}`);
      }
      const whole = costOf(alignTokens(a, b, { window: 100_000 }), a, b);
      const windowed = costOf(alignTokens(a, b, { window: 64 }), a, b);
      assert.equal(windowed, whole, `seed ${seed}`);
      assert.equal(whole, 30, `seed ${seed}: one edit each`);
    }
  });

  it('uses every token once even when the heard side is unrelated noise', () => {
    const a = words(900, 7);
    const b = words(1300, 8).map((w) => `${w}z`);
    const cost = costOf(alignTokens(a, b, { window: 50 }), a, b);
    assert.ok(cost >= 1300 && cost <= 2200, `between all substituted and all deleted and inserted: ${cost}`);
  });

  it('aligns a 50 000-word book with a skipped passage and a repeated loop in one pass', () => {
    const a = words(50_000, 11).map((w, i) => (i % 97 === 0 ? `${w}${i}` : w));
    const b = [
      ...a.slice(0, 20_000),
      ...a.slice(20_300, 40_000),
      ...Array.from({ length: 250 }, () => 'loop'),
      ...a.slice(40_000),
    ];
    const ops = alignTokens(a, b);
    // Where a window cuts through the skipped passage a few matches may pair off differently: near, not exact.
    const cost = costOf(ops, a, b);
    assert.ok(cost >= 550 && cost <= 560, `550 edits, give or take a window's edge: ${cost}`);
    assert.equal(ops.filter((op) => op.type === 'delete').length, 300);
    assert.equal(ops.filter((op) => op.type === 'insert').length, 250);
  });
});

describe('proof-listen: findings on constructed transcripts', () => {
  it('finds nothing when the narration was heard as written, whatever the case and punctuation', () => {
    assert.deepEqual(check('Hello, World! It\'s "fine" — really.', 'hello world its fine really'), []);
  });

  it('compares numbers and money as they are spoken, written as digits or words on either side', () => {
    const text = 'It costs $12.50 in 2024, said 3 people.';
    assert.deepEqual(
      check(text, 'it costs twelve dollars and fifty cents in twenty twenty-four said three people'),
      [],
    );
    assert.deepEqual(check(text, 'It costs 12 dollars and 50 cents in 2024 said 3 people'), []);
    assert.deepEqual(
      brief(text, check(text, 'it costs twelve dollars and fifty cents in twenty twenty-four said four people')),
      [['said-differently', '3', 'four', '3']],
    );
    // Shown as written, with its symbol, without the punctuation after it.
    assert.deepEqual(brief(text, check(text, 'it costs twelve dollars in twenty twenty-four said three people')), [
      ['skipped', '$12.50', '', '$12.50'],
    ]);
  });

  it('reports a skipped word on its source range with the gap in the narration', () => {
    const text = 'The quick brown fox jumps.';
    const findings = check(text, 'The quick fox jumps');
    assert.deepEqual(brief(text, findings), [['skipped', 'brown', '', 'brown']]);
    assert.deepEqual(findings[0].time, { start: 0.9, end: 1 });
  });

  it('reports an added word on the written word before it, with its own time', () => {
    const text = 'The quick brown fox.';
    const findings = check(text, 'the quick um brown fox');
    assert.deepEqual(brief(text, findings), [['added', '', 'um', 'quick']]);
    assert.deepEqual(findings[0].time, { start: 1, end: 1.4 });
    // At the very start there is no word before: the one after it.
    assert.deepEqual(brief(text, check(text, 'so the quick brown fox')), [['added', '', 'so', 'The']]);
  });

  it('reports a word said differently with what was heard, and a run of them as one finding', () => {
    const text = 'Nguyen met Anna at the Louvre yesterday.';
    assert.deepEqual(brief(text, check(text, 'win met Anna at the Louvre yesterday')), [
      ['said-differently', 'Nguyen', 'win', 'Nguyen'],
    ]);
    const run = check(text, 'Nguyen met Anna at a loo vrah yesterday');
    assert.deepEqual(brief(text, run), [['said-differently', 'the Louvre', 'a loo vrah', 'the Louvre']]);
    assert.deepEqual(run[0].time, { start: 2, end: 3.4 });
  });

  it('finds one skipped or one added word among repeated words', () => {
    const text = 'I said that that was it.';
    const skipped = check(text, 'I said that was it');
    assert.equal(skipped.length, 1);
    assert.equal(skipped[0].kind, 'skipped');
    assert.equal(skipped[0].written, 'that');
    const added = check('I said that was it.', 'I said that that was it');
    assert.deepEqual(
      added.map((f) => [f.kind, f.heard]),
      [['added', 'that']],
    );
  });

  it('reports every sentence as skipped when nothing was heard', () => {
    const text = 'Nothing was heard.\n\nAt all.';
    const findings = check(text, '');
    assert.deepEqual(brief(text, findings), [
      ['skipped', 'Nothing was heard', '', 'Nothing was heard'],
      ['skipped', 'At all', '', 'At all'],
    ]);
    assert.deepEqual(
      findings.map((f) => f.time),
      [
        { start: 0, end: 0 },
        { start: 0, end: 0 },
      ],
    );
  });

  it('splits a run of differences at sentence ends, keeping what was heard with the sentence it came in', () => {
    const text = 'One two. Three four.';
    assert.deepEqual(brief(text, check(text, 'won too tree for')), [
      ['said-differently', 'One two', 'won too', 'One two'],
      ['said-differently', 'Three four', 'tree for', 'Three four'],
    ]);
  });

  it('reports only added words for an empty source, and nothing when both are empty', () => {
    assert.deepEqual(
      check('```\ncode only\n```\n', 'hello', 'markdown').map((f) => f.kind),
      ['added'],
    );
    assert.deepEqual(check('', ''), []);
  });

  it('reads Markdown: markup and code are not expected, findings land on the words as written', () => {
    const md =
      '# Proof *listening*\n\nSay **Nguyen** and [the link](https://example.com).\n\n```js\nconst silent = 1;\n```\n\nDone.';
    assert.deepEqual(check(md, 'proof listening say Nguyen and the link done', 'markdown'), []);
    const findings = check(md, 'proof listening say win and the link', 'markdown');
    assert.deepEqual(brief(md, findings), [
      ['said-differently', 'Nguyen', 'win', 'Nguyen'],
      ['skipped', 'Done', '', 'Done'],
    ]);
    // A run over markup names the words as read; its range covers them as written.
    const run = check(md, 'proof listening say Nguyen and a lynx done', 'markdown');
    assert.deepEqual(brief(md, run), [['said-differently', 'the link', 'a lynx', 'the link']]);
    const bold = check(md, 'proof listening say when and the link done', 'markdown');
    assert.deepEqual(brief(md, check(md, 'proof listening sang win and the link done', 'markdown')), [
      ['said-differently', 'Say Nguyen', 'sang win', 'Say **Nguyen'],
    ]);
    assert.equal(bold[0].written, 'Nguyen');
  });

  it('counts what it compared', () => {
    const report = proofListen('One two three.', 'plain', '', 'en', heard('one two four five'));
    assert.deepEqual(
      { ...report, findings: report.findings.length },
      { findings: 1, sourceTokens: 3, matched: 2, heardTokens: 4 },
    );
  });
});
