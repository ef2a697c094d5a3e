// Voice search folds what people type: accents, case and compatibility forms such as fullwidth letters (issue 24 #16).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldForSearch, matchesSearch, searchTermsFor } from '../../src/voices/voice-search';

describe('voice search', () => {
  const french = searchTermsFor('French (Belgium)', 'fr-BE');

  it('finds with fullwidth letters what it finds with ASCII ones', () => {
    assert.equal(matchesSearch(french, 'French'), true);
    assert.equal(matchesSearch(french, 'Ｆｒｅｎｃｈ'), true);
    assert.equal(matchesSearch(french, 'ＦＲＥＮＣＨ　ｂｅｌｇｉｕｍ'), true);
  });

  it('folds case fully and drops accents: Straße finds strasse, Français finds francais', () => {
    assert.equal(foldForSearch('Straße'), foldForSearch('STRASSE'));
    assert.equal(matchesSearch(french, 'FRANÇAIS'), true);
    assert.equal(matchesSearch(french, 'German'), false);
  });
});
