import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { narrationFormatFor, sameFormat, suggestedNarrationName } from '../../src/editor/narration-file';

describe('narration file', () => {
  it('takes the format from the extension the user typed', () => {
    assert.deepEqual(narrationFormatFor('/tmp/x.mp3'), { outputFormat: 'mp3', label: 'MP3' });
    assert.equal(narrationFormatFor('/tmp/x.MP3')?.outputFormat, 'mp3');
    assert.equal(narrationFormatFor('/tmp/x.flac')?.outputFormat, 'flac');
    assert.equal(narrationFormatFor('/tmp/x.aac')?.outputFormat, 'aac');
    assert.equal(narrationFormatFor('/tmp/x.m4a')?.encodeAs, 'm4a');
    assert.equal(narrationFormatFor('/tmp/x.ogg')?.encodeAs, 'opus');
    assert.equal(narrationFormatFor('/tmp/x.wav')?.outputFormat, 'wav');
    assert.equal(narrationFormatFor('/tmp/x.txt'), undefined);
    assert.equal(narrationFormatFor('/tmp/x'), undefined);
  });

  it('copies when the job already wrote that format', () => {
    assert.equal(sameFormat(narrationFormatFor('a.wav')!, { outputFormat: 'wav' }), true);
    assert.equal(sameFormat(narrationFormatFor('a.m4a')!, { outputFormat: 'wav' }), false);
    assert.equal(sameFormat(narrationFormatFor('a.mp3')!, { outputFormat: 'wav' }), false);
  });

  it('suggests a name cut at a word boundary, without characters file systems refuse', () => {
    const name = suggestedNarrationName('It was a bright cold day in April, and the clocks were striking thirteen.');
    assert.equal(name, 'It was a bright cold day in April and');
    assert.ok(name.length <= 40);
    assert.equal(suggestedNarrationName('What? A/B: "yes"'), 'What A B yes');
    assert.equal(suggestedNarrationName('Supercalifragilisticexpialidocious'.repeat(2), 10), 'Supercalif');
    assert.equal(suggestedNarrationName('…'), 'narration');
    assert.equal(suggestedNarrationName("L'été est là, n'est-ce pas"), "L'été est là n'est-ce pas");
  });
});
