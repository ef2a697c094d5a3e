/**
 * The aligner's rendition is the same every time in one process: espeak-ng carries state from one synthesis
 * to the next, so the aligner speaks on an espeak instance of its own (openOwnEspeak).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderScript } from '../../src/engine/align/rendition';
import { concatSamples } from '../../src/engine/audio/samples';
import { openEspeakVoice, openOwnEspeak } from '../../src/engine/tts/synthesizers/espeak';

const VOICE = 'gmw/en-US';
// Fricatives and plosives: the sounds espeak makes from its noise generator.
const TEXT = 'She sells sea shells, the fish splashed; surely this is a sharp hiss.';

describe('the aligner speaks the same text the same way every time', () => {
  it('an own espeak instance gives the same samples for the same text, whatever was said elsewhere in between', async () => {
    const first = await openOwnEspeak();
    const a = concatSamples(first.openVoice(VOICE, 175).synthesize(TEXT));
    // Other calls in between: another text at another rate on that instance, and on the shared one.
    first.openVoice(VOICE, 300).synthesize('Something else entirely, with other sounds: fff, sss, shh.');
    (await openEspeakVoice(VOICE, 230)).synthesize('The shared instance says something too.');
    const b = concatSamples((await openOwnEspeak()).openVoice(VOICE, 175).synthesize(TEXT));
    assert.ok(a.length > 10_000, `a real rendition (${a.length} samples)`);
    assert.equal(b.length, a.length);
    assert.deepEqual(b, a);
  });

  it('the same script gives the same rendition in two jobs, frame for frame', async () => {
    const script = [TEXT, 'and with them came the wolves.', 'Putting his horse into an ambling pace,'];
    const first = renderScript(await openOwnEspeak(), script, VOICE, 190);
    (await openEspeakVoice(VOICE, 120)).synthesize('Between the two jobs the engine says something else.');
    const second = renderScript(await openOwnEspeak(), script, VOICE, 190);
    assert.equal(second.units.length, script.length);
    second.units.forEach((unit, i) => {
      assert.equal(unit.frames, first.units[i].frames, `unit ${i}`);
      assert.deepEqual(unit.cepstra, first.units[i].cepstra, `unit ${i}`);
      assert.deepEqual(unit.words, first.units[i].words, `unit ${i}`);
    });
  });
});
