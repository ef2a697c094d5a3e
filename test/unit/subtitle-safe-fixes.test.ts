import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SUBTITLE_STYLE } from '../../src/contract/subtitle-style';
import { checkSubtitles } from '../../src/subtitles/check';
import { applyEdits } from '../../src/subtitles/edits';
import { createdProblems, describeChange, fixVariants, isSafe, planCommonFixes } from '../../src/subtitles/safe-fixes';

const style = DEFAULT_SUBTITLE_STYLE;
const srt = (...cues: [string, string, string][]): string =>
  cues.map(([start, end, text], i) => `${i + 1}\n${start} --> ${end}\n${text}\n`).join('\n');
const kinds = (source: string): string[] => checkSubtitles(source, 'srt', style).map((p) => `${p.cue}:${p.kind}`);

// Cue 2 starts 1.4 s before cue 1 ends: ending cue 1 before it would leave cue 1 0.52 s for 27 characters.
const OVERLAP = srt(
  ['00:00:01,000', '00:00:03,000', 'He said he would come back.'],
  ['00:00:01,600', '00:00:06,000', 'She did not believe him.'],
);

describe('safe subtitle fixes', () => {
  it('the overlap fix that would leave a cue too short and too fast is ranked last, a safe one first', () => {
    assert.deepEqual(kinds(OVERLAP), ['2:overlap']);
    const variants = fixVariants(OVERLAP, 'srt', style, { kind: 'overlap', cue: 2 });
    assert.deepEqual(
      variants.map((v) => v.fix),
      ['push-forward', 'meet-halfway', 'pull-back'],
    );
    assert.ok(isSafe(variants[0]));
    assert.equal(variants[0].change, 'cue 2 starts 00:00:01.600 → 00:00:03.080');
    assert.deepEqual(kinds(applyEdits(OVERLAP, variants[0].edits)), []);
    const pullBack = variants.at(-1)!;
    assert.ok(pullBack.solves);
    assert.deepEqual(
      pullBack.created.map((p) => p.message),
      [
        'cue 1 lasts 0.52 s, less than the minimum of 0.83 s',
        'cue 1 reads at 51.9 characters per second, faster than 17',
      ],
    );
  });

  it('when every way creates a problem, the one creating fewest comes first and none is safe', () => {
    const crowded = srt(
      ['00:00:01,000', '00:00:03,000', 'He said he would come back.'],
      ['00:00:01,600', '00:00:03,100', 'She did not believe him at all, not once.'],
      ['00:00:03,200', '00:00:06,000', 'Later.'],
    );
    const variants = fixVariants(crowded, 'srt', style, { kind: 'overlap', cue: 2 });
    assert.ok(variants.length > 0);
    assert.ok(!variants.some(isSafe));
    assert.ok(variants.every((v, i) => i === 0 || !v.solves || v.created.length >= variants[0].created.length));
  });

  it('a reading-speed problem is fixed by giving the cue the time, as far as the next cue allows', () => {
    const fast = srt(
      ['00:00:01,000', '00:00:02,000', 'Twenty-four characters!!'],
      ['00:00:05,000', '00:00:06,000', 'Next.'],
    );
    const [best] = fixVariants(fast, 'srt', style, { kind: 'reading-speed', cue: 1 });
    assert.equal(best.fix, 'extend-to-read');
    assert.ok(isSafe(best), best.created.map((p) => p.message).join());
    assert.equal(best.change, 'cue 1 ends 00:00:02.000 → 00:00:02.420');
  });

  it('Fix Common Problems applies only safe fixes, as one edit, and says what is left', () => {
    const source = srt(
      ['00:00:01,000', '00:00:03,000', 'He said he would come back.'],
      ['00:00:01,600', '00:00:06,000', 'She did not believe him.'],
      ['00:00:07,000', '00:00:07,300', 'No.'],
      ['00:00:07,310', '00:00:09,000', 'A line that is much, much longer than forty-two characters and more'],
    );
    const plan = planCommonFixes(source, 'srt', style);
    assert.equal(plan.edits.length, 1);
    assert.equal(applyEdits(source, plan.edits), plan.text);
    // The overlap is fixed the way that leaves cue 1 its time; the merged cue then gets the time to be read.
    assert.deepEqual(
      plan.steps.map((s) => `${s.title}: ${s.change}`),
      [
        'Start cue 2 after cue 1 ends: cue 2 starts 00:00:01.600 → 00:00:03.080',
        'Merge cue 3 with the next: cues 3 and 4 become cue 3',
        'Give cue 3 the time to read it: cue 3 ends 00:00:09.000 → 00:00:11.120',
      ],
    );
    assert.deepEqual(plan.remaining, []);
    assert.deepEqual(createdProblems(source, plan.text, 'srt', style), []);
    assert.deepEqual(plan.remaining, checkSubtitles(plan.text, 'srt', style));
  });

  it('a problem every fix would make worse is left, with what the best fix would create', () => {
    const crowded = srt(
      ['00:00:01,000', '00:00:03,000', 'He said he would come back.'],
      ['00:00:01,600', '00:00:03,100', 'She did not believe him at all, not once.'],
      ['00:00:03,200', '00:00:06,000', 'Later.'],
    );
    const plan = planCommonFixes(crowded, 'srt', style, ['overlap']);
    assert.deepEqual(plan.steps, []);
    assert.equal(plan.unsafe.length, 1);
    assert.equal(plan.unsafe[0].problem.kind, 'overlap');
    assert.ok(plan.unsafe[0].wouldCreate.length > 0);
    assert.ok(plan.remaining.some((p) => p.kind === 'overlap'));
  });

  it('only the kinds asked for are fixed', () => {
    const plan = planCommonFixes(OVERLAP, 'srt', style, ['line-too-long']);
    assert.deepEqual(plan.steps, []);
    assert.deepEqual(plan.edits, []);
  });

  // The same text a fix of every cue of one kind gave before planCommonFixes took over that job.
  it('fixes every cue of a kind, each on the text the fix before it left, as one edit', () => {
    const source = ['1', '00:00:01,000 --> 00:00:01,200', 'a', '', '2', '00:00:05,000 --> 00:00:05,100', 'b', ''].join(
      '\r\n',
    );
    const plan = planCommonFixes(source, 'srt', style, ['too-short']);
    assert.equal(plan.edits.length, 1);
    assert.equal(applyEdits(source, plan.edits), source.replace('01,200', '01,830').replace('05,100', '05,830'));
  });

  it('splits every cue too long, renumbering as it goes', () => {
    const source = [
      '1',
      '00:00:00,000 --> 00:00:10,000',
      'One two. Three four.',
      '',
      '2',
      '00:00:20,000 --> 00:00:30,000',
      'Five six. Seven eight.',
      '',
    ].join('\r\n');
    const fixed = applyEdits(source, planCommonFixes(source, 'srt', style, ['too-long']).edits);
    assert.deepEqual(
      fixed.split('\r\n').filter((line) => /^\d+$/.test(line)),
      ['1', '2', '3', '4'],
    );
    assert.deepEqual(
      checkSubtitles(fixed, 'srt', style).filter((p) => p.kind === 'too-long'),
      [],
    );
  });

  it('describes a split and a merge by the cues they make', () => {
    const one = srt(['00:00:01,000', '00:00:09,000', 'This cue runs for eight seconds. It should be split in two.']);
    const [split] = fixVariants(one, 'srt', style, { kind: 'too-long', cue: 1 });
    assert.equal(split.change, 'cue 1 becomes cues 1 and 2');
    assert.equal(describeChange(applyEdits(one, split.edits), one, 'srt'), 'cues 1 and 2 become cue 1');
  });
});
