import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  AUDIO_MEDIA_TYPES,
  MEDIA_EXTENSIONS,
  outputMediaType,
  storedInputName,
  TRANSCRIPT_MEDIA_TYPES,
} from '../../src/contract/media-types';
import { OUTPUT_FORMATS, TRANSCRIPT_FORMATS } from '../../src/contract/openapi';

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));

describe('the media-type and extension table', () => {
  it('has a media type for every output format and every transcript format of the contract', () => {
    assert.deepEqual(Object.keys(AUDIO_MEDIA_TYPES).sort(), [...OUTPUT_FORMATS].sort());
    assert.deepEqual(Object.keys(TRANSCRIPT_MEDIA_TYPES).sort(), [...TRANSCRIPT_FORMATS].sort());
    assert.equal(outputMediaType('mp3'), 'audio/mpeg');
    assert.equal(outputMediaType('json'), 'application/json');
    assert.equal(outputMediaType('toString'), 'application/json');
  });

  it('names stored inputs after a known media extension only, never after the client', () => {
    assert.equal(storedInputName('../../Talk.MP4'), 'input.mp4');
    assert.equal(storedInputName('/home/me/a.b/recording.opus'), 'input.opus');
    assert.equal(storedInputName('notes.exe'), 'input.media');
    assert.equal(storedInputName('no-extension'), 'input.media');
    assert.equal(storedInputName(''), 'input.media');
    assert.equal(storedInputName('.wav'), 'input.media');
  });

  it("matches the extensions in package.json's explorer menus, which cannot import it", () => {
    const clauses: string[] = Object.values(manifest.contributes.menus as Record<string, Array<{ when?: string }>>)
      .flat()
      .map((item) => item.when ?? '')
      .filter((when) => when.includes('resourceExtname') && when.includes('wav'));
    assert.ok(clauses.length > 0, 'no media menu found in package.json');
    for (const when of clauses) {
      const listed = /\\\.\(([a-z0-9|]+)\)/.exec(when)?.[1]?.split('|');
      assert.deepEqual(listed, [...MEDIA_EXTENSIONS], when);
    }
  });
});
