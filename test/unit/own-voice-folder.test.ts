import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ownVoiceFolder } from '../../src/voices/own-voices';

describe('the folder of a voice of your own', () => {
  it('keeps Latin names readable, one folder for "José" typed either way', () => {
    assert.equal(ownVoiceFolder('Narrator Two'), 'narrator-two');
    assert.equal(ownVoiceFolder('Jos\u00e9'), 'jose');
    assert.equal(ownVoiceFolder('Jose\u0301'), 'jose');
  });

  it('gives names in other scripts folders of their own instead of one shared "voice"', () => {
    const names = ['Мария', 'Иван', '花子', '太郎', 'فاطمة', 'יעל'];
    const folders = names.map(ownVoiceFolder);
    assert.equal(new Set(folders).size, names.length, JSON.stringify(folders));
    for (const folder of folders) assert.match(folder, /^voice-[0-9a-f]{10}$/);
    assert.equal(ownVoiceFolder('МАРИЯ'), ownVoiceFolder('Мария'), 'one voice whatever the case');
    assert.equal(ownVoiceFolder('Мария'), ownVoiceFolder('Мария'), 'the same name, the same folder');
  });
});
