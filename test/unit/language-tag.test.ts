import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { caseLanguageTag, languageTagStartsWith } from '../../src/voices/language-tag';

describe('caseLanguageTag', () => {
  it('writes language lower-case, region upper-case and script title-case', () => {
    assert.equal(caseLanguageTag('en-us'), 'en-US');
    assert.equal(caseLanguageTag('EN'), 'en');
    assert.equal(caseLanguageTag('cmn-latn-pinyin'), 'cmn-Latn-pinyin');
    assert.equal(caseLanguageTag('chr-us-qaaa-x-west'), 'chr-US-Qaaa-x-west');
    assert.equal(caseLanguageTag('en-gb-scotland'), 'en-GB-scotland');
  });

  it('keeps numeric regions, extended languages and variants as they are', () => {
    assert.equal(caseLanguageTag('en-029'), 'en-029');
    assert.equal(caseLanguageTag('es-419'), 'es-419');
    assert.equal(caseLanguageTag('zh-yue'), 'zh-yue');
    assert.equal(caseLanguageTag('en-us-nyc'), 'en-US-nyc');
  });

  it('leaves everything after a singleton alone', () => {
    assert.equal(caseLanguageTag('en-gb-x-rp'), 'en-GB-x-rp');
    assert.equal(caseLanguageTag('vi-vn-x-central'), 'vi-VN-x-central');
    assert.equal(caseLanguageTag('de-X-ab-Cdef'), 'de-x-ab-Cdef');
  });
});

describe('languageTagStartsWith', () => {
  it('matches the tag itself and its extensions at a subtag boundary, ignoring case', () => {
    assert.ok(languageTagStartsWith('en-GB-x-rp', 'en'));
    assert.ok(languageTagStartsWith('en-GB-x-rp', 'EN-gb'));
    assert.ok(languageTagStartsWith('en-US', 'en-us'));
    assert.ok(!languageTagStartsWith('en-US', 'en-GB'));
    assert.ok(!languageTagStartsWith('eo', 'e'));
    assert.ok(!languageTagStartsWith('en', 'en-US'));
  });
});
