import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SaxesParser } from 'saxes';
import { parseSubtitles } from '../../src/subtitles/parse';
import { scanSubtitles } from '../../src/subtitles/scan';
import { renderSubtitleFile, subtitleFileFormatOf, type SubtitleFileFormat } from '../../src/subtitles/subtitle-file';
import { WRITER_CUES, WRITER_TRANSCRIPT } from '../helpers/writer-transcript';

const TRANSCRIPT = WRITER_TRANSCRIPT;
const cues = WRITER_CUES;

/** Time precision of the format: ASS counts hundredths. */
const PRECISION: Record<SubtitleFileFormat, number> = {
  srt: 0.0005,
  vtt: 0.0005,
  ttml: 0.0005,
  sbv: 0.0005,
  ass: 0.0051,
};

describe('writing new subtitle files', () => {
  for (const format of ['ass', 'ttml', 'sbv', 'srt', 'vtt'] as const) {
    it(`${format}: our reader reads back every cue, its times and its text`, () => {
      const body = renderSubtitleFile(TRANSCRIPT, format);
      const scanned = scanSubtitles(body, format);
      assert.deepEqual(scanned.errors, []);
      assert.equal(scanned.cues.length, cues.length);
      scanned.cues.forEach((cue, i) => {
        assert.ok(Math.abs(cue.start - cues[i].start) <= PRECISION[format], `cue ${i + 1} start`);
        assert.ok(Math.abs(cue.end - cues[i].end) <= PRECISION[format], `cue ${i + 1} end`);
        assert.equal(cue.lines.length, cues[i].lines.length, `cue ${i + 1} lines`);
      });
      const read = parseSubtitles(body, format);
      assert.equal(read[0].text, 'Hello, world.');
      assert.equal(
        read.find((cue) => cue.text.includes('Ampersands'))?.text.replace(/[()]/g, (c) => (c === '(' ? '{' : '}')),
        'Ampersands & 1 < 2 > 0 and {braces} stay text.',
      );
    });
  }

  it('ttml: a well-formed TTML document in the TTML namespace, its language on the root', () => {
    const body = renderSubtitleFile(TRANSCRIPT, 'ttml');
    const parser = new SaxesParser({ xmlns: true });
    const paragraphs: Array<Record<string, string>> = [];
    let root: { uri: string; lang: string } | undefined;
    parser.on('opentag', (tag) => {
      root ??= { uri: tag.uri, lang: tag.attributes['xml:lang']?.value ?? '' };
      if (tag.local === 'p')
        paragraphs.push(Object.fromEntries(Object.values(tag.attributes).map((a) => [a.name, a.value])));
    });
    parser.write(body).close();
    assert.deepEqual(root, { uri: 'http://www.w3.org/ns/ttml', lang: 'en' });
    assert.equal(paragraphs.length, cues.length);
    assert.equal(paragraphs.at(-1)!.begin, '01:01:02.125');
  });

  it('takes the format from the file name: .dfxp is TTML, .ssa is written as ASS', () => {
    assert.deepEqual(
      ['a.ass', 'a.ssa', 'a.ttml', 'a.dfxp', 'a.SBV', 'a.srt', 'a.vtt', 'a.txt'].map(subtitleFileFormatOf),
      ['ass', 'ass', 'ttml', 'ttml', 'sbv', 'srt', 'vtt', undefined],
    );
  });
});
