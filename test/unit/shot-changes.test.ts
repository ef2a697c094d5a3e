import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveStyle } from '../../src/contract/subtitle-style';
import { applyEdits } from '../../src/subtitles/edits';
import { scanSubtitles } from '../../src/subtitles/scan';
import { checkShotChanges, snapToShotChange } from '../../src/subtitles/shot-changes';

/** 25 fps: a frame is 40 ms, 12 frames 480 ms. Cuts at 2 s, 6 s, 10 s and 14 s. */
const SHOTS = { framesPerSecond: 25, changes: [2, 6, 10, 14] };
const style = resolveStyle('default');
const srt = (...cues: Array<[string, string, string]>): string =>
  cues.map(([start, end, text], i) => `${i + 1}\n00:00:${start} --> 00:00:${end}\n${text}\n`).join('\n');
const brief = (source: string) =>
  checkShotChanges(source, 'srt', style, SHOTS).map(
    (p) => `${p.cue}:${p.edge}:${p.framesAway}:${p.blockedBy ? 'blocked' : 'snap'}`,
  );

describe('cues against shot changes', () => {
  it('points at a start a few frames after a cut and an end a few frames before one, and snaps them as Netflix times them', () => {
    const source = srt(['02,200', '05,880', 'Five frames late and four frames short.']);
    const problems = checkShotChanges(source, 'srt', style, SHOTS);
    assert.deepEqual(
      problems.map((p) => `${p.edge}:${p.change}:${p.framesAway}`),
      ['start:2:5', 'end:6:1'],
    );
    assert.match(
      problems[0].message,
      /^cue 1 starts 5 frames after the shot change at 2\.000 s; start it on the change$/,
    );
    assert.match(
      problems[1].message,
      /^cue 1 ends 3 frames before the shot change at 6\.000 s; end it 2 frames before the change$/,
    );
    // One fix at a time, as the editor applies them: each rewrites the cue's timing line.
    const startFixed = applyEdits(source, snapToShotChange(source, 'srt', problems[0]));
    const snapped = applyEdits(
      startFixed,
      snapToShotChange(startFixed, 'srt', checkShotChanges(startFixed, 'srt', style, SHOTS)[0]),
    );
    assert.equal(snapped, srt(['02,000', '05,920', 'Five frames late and four frames short.']));
    assert.deepEqual(brief(snapped), [], 'the snapped cue is on the cuts');
  });

  it("leaves edges on a cut, two frames before one, or further than the style's frames from any", () => {
    assert.deepEqual(
      brief(
        srt(
          ['02,000', '05,920', 'On the cut, out two frames before.'],
          ['06,000', '09,000', 'On the cut, out 1 s before the next.'],
        ),
      ),
      [],
    );
    assert.deepEqual(brief(srt(['02,520', '05,000', 'Thirteen frames after, a second before.'])), []);
    assert.deepEqual(brief(srt(['10,000', '14,000', 'Out on the cut itself.'])), []);
    const off = resolveStyle('default', { shotChangeFrames: 0 });
    assert.deepEqual(
      checkShotChanges(srt(['02,200', '05,880', 'x']), 'srt', off, SHOTS),
      [],
      '0 frames turns the check off',
    );
    assert.deepEqual(
      checkShotChanges(srt(['02,200', '05,880', 'x']), 'srt', style, { framesPerSecond: 25, changes: [] }),
      [],
    );
  });

  it("points at a start just before a cut too, and counts frames at the video's rate", () => {
    assert.deepEqual(brief(srt(['01,800', '04,000', 'Five frames early.'])), ['1:start:5:snap']);
    const at24 = checkShotChanges(srt(['02,500', '04,000', 'Twelve frames late at 24 fps.']), 'srt', style, {
      framesPerSecond: 24,
      changes: [2],
    });
    assert.deepEqual(
      at24.map((p) => p.framesAway),
      [12],
    );
  });

  it('does not offer a snap that would break the style, and says which rule', () => {
    // Snapping the start of cue 2 back to the cut at 6 s would leave no gap after cue 1, which ends at 5.980.
    const gap = srt(['04,000', '05,980', 'Ends late.'], ['06,200', '08,000', 'Starts five frames after the cut.']);
    const blocked = checkShotChanges(gap, 'srt', style, SHOTS).find((p) => p.cue === 2 && p.edge === 'start')!;
    assert.match(
      blocked.message,
      /snapping it to the change is not offered: it would start less than 0\.080 s after cue 1 ends/,
    );
    assert.deepEqual(snapToShotChange(gap, 'srt', blocked), []);
    // Snapping the end of a short cue back to 2 frames before the cut at 10 s would make it too short.
    const short = srt(['09,300', '10,100', 'Short.']);
    const tooShort = checkShotChanges(short, 'srt', style, SHOTS).find((p) => p.edge === 'end')!;
    assert.match(tooShort.blockedBy!, /under the shortest duration of 0\.830 s/);
  });

  it('snaps in a WebVTT file with settings after the timing, keeping them', () => {
    const vtt = 'WEBVTT\n\n00:02.160 --> 00:04.000 align:start\nHello\n';
    const [problem] = checkShotChanges(vtt, 'vtt', style, SHOTS);
    const fixed = applyEdits(vtt, snapToShotChange(vtt, 'vtt', problem));
    assert.equal(fixed, 'WEBVTT\n\n00:02.000 --> 00:04.000 align:start\nHello\n');
    assert.equal(scanSubtitles(fixed, 'vtt').cues[0].start, 2);
  });
});
