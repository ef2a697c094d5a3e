// The timeline's editing rules: a drag's new times, a start or end at the playhead, a split at the playhead,
// each as text edits of the timing lines only; what cannot be done is refused with a sentence.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SUBTITLE_STYLE as STYLE } from '../../src/contract/subtitle-style';
import { applyEdits } from '../../src/subtitles/edits';
import { editsForTimeline, parseTimelineEdit } from '../../src/editor/subtitles/timeline-edits';

const VTT = [
  'WEBVTT',
  '',
  '00:00:00.300 --> 00:00:02.000 align:start',
  'And so my fellow Americans,',
  '',
  '00:00:02.500 --> 00:00:03.700',
  'ask not',
  '',
  '00:00:04.000 --> 00:00:07.000',
  'what your country can do for you,',
  '',
].join('\n');

const run = (edit: Parameters<typeof editsForTimeline>[3]): string => {
  const edits = editsForTimeline(VTT, 'vtt', STYLE, edit);
  if (typeof edits === 'string') throw new Error(edits);
  return applyEdits(VTT, edits);
};

describe('editsForTimeline', () => {
  it('retimes a dragged cue, keeping its cue settings', () => {
    assert.equal(
      run({ type: 'retime', index: 1, start: 0.25, end: 2.1 }),
      VTT.replace('00:00:00.300 --> 00:00:02.000 align:start', '00:00:00.250 --> 00:00:02.100 align:start'),
    );
    assert.equal(run({ type: 'retime', index: 2, start: 2.5, end: 3.9 }), VTT.replace('00:00:03.700', '00:00:03.900'));
    assert.deepEqual(
      editsForTimeline(VTT, 'vtt', STYLE, { type: 'retime', index: 2, start: 2.5, end: 3.7 }),
      [],
      'a drag back to where it was is no edit',
    );
  });

  it('sets a start or end at the playhead', () => {
    assert.equal(
      run({ type: 'at-playhead', edge: 'start', index: 2, position: 2.4 }),
      VTT.replace('00:00:02.500', '00:00:02.400'),
    );
    assert.equal(
      run({ type: 'at-playhead', edge: 'end', index: 2, position: 3.85 }),
      VTT.replace('00:00:03.700', '00:00:03.850'),
    );
  });

  it('splits the cue under the playhead, whichever cue is current', () => {
    const split = run({ type: 'at-playhead', edge: 'split', index: 1, position: 5.5 });
    assert.match(split, /00:00:04\.000 --> 00:00:05\.500\n.+\n\n00:00:05\.580 --> 00:00:07\.000\n/);
  });

  it('refuses what cannot be done, with a sentence', () => {
    assert.match(
      editsForTimeline(VTT, 'vtt', STYLE, { type: 'at-playhead', edge: 'start', index: 2, position: 3.8 }) as string,
      /after the end of cue 2/,
    );
    assert.match(
      editsForTimeline(VTT, 'vtt', STYLE, { type: 'at-playhead', edge: 'end', index: null, position: 3 }) as string,
      /Put the cursor in a cue/,
    );
    assert.match(
      editsForTimeline(VTT, 'vtt', STYLE, { type: 'at-playhead', edge: 'split', index: null, position: 3.8 }) as string,
      /inside a cue/,
    );
    assert.match(
      editsForTimeline(VTT, 'vtt', STYLE, { type: 'at-playhead', edge: 'split', index: 2, position: 3.8 }) as string,
      /not inside cue 2/,
    );
    assert.match(
      editsForTimeline(VTT, 'vtt', STYLE, { type: 'retime', index: 7, start: 1, end: 2 }) as string,
      /no cue 7/,
    );
    assert.match(
      editsForTimeline(VTT, 'vtt', STYLE, { type: 'retime', index: 1, start: 2, end: 2 }) as string,
      /end before it starts/,
    );
  });
});

describe('parseTimelineEdit', () => {
  it("accepts the page's edits and drops anything else", () => {
    assert.deepEqual(parseTimelineEdit({ type: 'retime', index: 1, start: 0, end: 1 }), {
      type: 'retime',
      index: 1,
      start: 0,
      end: 1,
    });
    assert.deepEqual(parseTimelineEdit({ type: 'at-playhead', edge: 'split', index: null, position: 2 }), {
      type: 'at-playhead',
      edge: 'split',
      index: null,
      position: 2,
    });
    for (const bad of [
      null,
      { type: 'retime', index: 1, start: -1, end: 1 },
      { type: 'retime', index: 0, start: 0, end: 1 },
      { type: 'at-playhead', edge: 'middle', index: 1, position: 1 },
      { type: 'at-playhead', edge: 'start', index: 1, position: Number.NaN },
      { type: 'select', index: 1 },
    ]) {
      assert.equal(parseTimelineEdit(bad), undefined, JSON.stringify(bad));
    }
  });
});
