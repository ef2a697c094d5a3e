import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { applyEdits } from '../../src/subtitles/edits';
import { retimeFromAlignment } from '../../src/subtitles/retime-to-alignment';
import { scanSubtitles } from '../../src/subtitles/scan';
import { readScript, scriptFormatOf } from '../../src/subtitles/script';
import { driftedCues, styledSubtitles, withoutTimes, type StyledFormat } from '../helpers/styled-subtitles';
import { testModel } from '../helpers/test-models';

const truth = (
  JSON.parse(readFileSync(testModel('audio/align-dev/dev-a.truth.json'), 'utf8')) as {
    sentences: Array<{ start: number; end: number; text: string }>;
  }
).sentences;
/** How finely each format writes a time: ASS in hundredths, this TTML in frames of 25 a second, the rest in ms. */
const RESOLUTION: Record<StyledFormat, number> = {
  srt: 0.0005,
  vtt: 0.0005,
  sbv: 0.0005,
  ass: 0.005,
  ssa: 0.005,
  ttml: 0.02 + 1e-9,
};
const FORMATS: StyledFormat[] = ['srt', 'vtt', 'ass', 'ssa', 'ttml', 'sbv'];

describe('re-timing a subtitle file from an alignment of its cues', () => {
  for (const format of FORMATS) {
    it(`${format}: every cue gets its aligned time, and nothing but the times changes`, () => {
      const source = styledSubtitles(format, driftedCues(testModel('audio/align-dev/dev-a-drifted.srt')));
      const units = readScript(source, format);
      assert.deepEqual(
        units.map((unit) => unit.spoken),
        truth.map((sentence) => sentence.text),
        'the words to align, markup left out',
      );
      const { edits, report } = retimeFromAlignment(source, format, truth, []);
      const retimed = applyEdits(source, edits);
      assert.equal(withoutTimes(format, retimed), withoutTimes(format, source), 'styles, tags, ids and line ends kept');
      const cues = scanSubtitles(retimed, format);
      assert.deepEqual(cues.errors, []);
      cues.cues.forEach((cue, i) => {
        assert.ok(
          Math.abs(cue.start - truth[i].start) <= RESOLUTION[format],
          `cue ${i + 1} start ${cue.start} vs ${truth[i].start}`,
        );
        assert.ok(
          Math.abs(cue.end - truth[i].end) <= RESOLUTION[format],
          `cue ${i + 1} end ${cue.end} vs ${truth[i].end}`,
        );
      });
      assert.equal(report.total, 40);
      assert.equal(report.moved, 40);
      assert.ok(report.meanShiftMs > 500 && report.maxShiftMs >= report.meanShiftMs, JSON.stringify(report));
    });
  }

  it('a cue the aligner did not find keeps its times; the others are paired by number past it', () => {
    const cues = driftedCues(testModel('audio/align-dev/dev-a-drifted.srt'));
    const source = styledSubtitles('ass', cues);
    const found = truth.filter((_, i) => i !== 4);
    const retimed = scanSubtitles(
      applyEdits(source, retimeFromAlignment(source, 'ass', found, [{ index: 5 }]).edits),
      'ass',
    ).cues;
    assert.ok(Math.abs(retimed[4].start - cues[4].start) <= 0.005, 'cue 5 not moved');
    assert.ok(Math.abs(retimed[5].start - truth[5].start) <= 0.005, 'cue 6 timed as the sixth sentence');
    assert.ok(Math.abs(retimed[3].end - truth[3].end) <= 0.005, 'cue 4 timed as the fourth sentence');
  });

  it('knows every subtitle file name the aligner reads, DFXP as TTML', () => {
    assert.deepEqual(
      ['a.ass', 'a.SSA', 'a.ttml', 'a.dfxp', 'a.sbv', 'a.srt', 'a.vtt', 'a.md', 'a.txt', 'a.pdf'].map(scriptFormatOf),
      ['ass', 'ssa', 'ttml', 'ttml', 'sbv', 'srt', 'vtt', 'md', 'txt', undefined],
    );
  });
});
