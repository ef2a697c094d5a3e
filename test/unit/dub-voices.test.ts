import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dubFilterGraph } from '../../src/engine/dub/mix-dub';
import { framePitchHz, genderOfPitch, medianPitchHz } from '../../src/engine/dub/speaker-pitch';
import { chooseSpeakerVoices } from '../../src/voices/dub-voices';
import type { TtsVoiceRef } from '../../src/voices/voice-ref';

const RATE = 16_000;

/** A voiced sound: a pulse train at `hz` with a few harmonics, as a voice's fundamental looks to autocorrelation. */
function voiced(hz: number, seconds: number): Int16Array {
  const samples = new Int16Array(Math.round(RATE * seconds));
  for (let i = 0; i < samples.length; i++) {
    const t = i / RATE;
    samples[i] = Math.round(
      6000 *
        (Math.sin(2 * Math.PI * hz * t) + 0.5 * Math.sin(4 * Math.PI * hz * t) + 0.25 * Math.sin(6 * Math.PI * hz * t)),
    );
  }
  return samples;
}

const voice = (id: string): TtsVoiceRef => ({ engine: 'espeak-ng', engineVoiceId: id, languageCode: 'de' });

describe("dub: a speaker's pitch and gender", () => {
  it('finds the fundamental of a voiced frame, and none in silence', () => {
    const low = voiced(110, 0.04);
    assert.ok(Math.abs(framePitchHz(low, 0, low.length, RATE)! - 110) < 3);
    assert.equal(framePitchHz(new Int16Array(640), 0, 640, RATE), null);
  });

  it("takes the median over the speaker's ranges only, and says male below 165 Hz, female above", () => {
    const audio = new Int16Array(RATE * 4);
    audio.set(voiced(120, 2), 0);
    audio.set(voiced(220, 2), RATE * 2);
    const low = medianPitchHz(audio, RATE, [{ start: 0, end: 2 }]);
    const high = medianPitchHz(audio, RATE, [{ start: 2, end: 4 }]);
    assert.ok(low !== null && Math.abs(low - 120) < 4, String(low));
    assert.ok(high !== null && Math.abs(high - 220) < 6, String(high));
    assert.equal(genderOfPitch(low), 'male');
    assert.equal(genderOfPitch(high), 'female');
    assert.equal(medianPitchHz(new Int16Array(RATE), RATE, [{ start: 0, end: 1 }]), null, 'silence has no pitch');
    assert.equal(genderOfPitch(null), 'unknown');
  });
});

describe('dub: a voice for each speaker', () => {
  it('gives each speaker a voice of their gender, a different one while there are enough', () => {
    const chosen = chooseSpeakerVoices(
      [
        { label: 'A', gender: 'male' },
        { label: 'B', gender: 'female' },
        { label: 'C', gender: 'male' },
      ],
      { female: [voice('f1')], male: [voice('m1'), voice('m2')], other: [voice('o1')] },
    );
    assert.deepEqual(
      [...chosen].map(([label, v]) => [label, v.ref.engineVoiceId, v.source]),
      [
        ['A', 'm1', 'library'],
        ['B', 'f1', 'library'],
        ['C', 'm2', 'library'],
      ],
    );
  });

  it('falls back to voices of no gender, then shares voices once every voice is taken', () => {
    const chosen = chooseSpeakerVoices(
      [
        { label: 'A', gender: 'female' },
        { label: 'B', gender: 'unknown' },
        { label: 'C', gender: 'female' },
      ],
      { female: [], male: [], other: [voice('o1'), voice('o2')] },
    );
    assert.deepEqual(
      [...chosen.values()].map((v) => v.ref.engineVoiceId),
      ['o1', 'o2', 'o1'],
    );
  });

  it('uses a cloned voice where the seam gives one', () => {
    const chosen = chooseSpeakerVoices(
      [{ label: 'A', gender: 'male' }],
      { female: [], male: [voice('m1')], other: [] },
      (label) => (label === 'A' ? voice('clone-a') : undefined),
    );
    assert.deepEqual(chosen.get('A'), { ref: voice('clone-a'), source: 'cloned' });
  });
});

describe('dub: the mix', () => {
  it("ducks the original under the dub with a sidechain compressor, or leaves it out, always to the video's length", () => {
    const duck = dubFilterGraph('duck', 12.5, true);
    assert.match(duck, /\[bed\]\[key\]sidechaincompress/);
    assert.match(duck, /apad=whole_dur=12\.5,atrim=end=12\.5\[dub\]$/);
    const replace = dubFilterGraph('replace', 12.5, true);
    assert.doesNotMatch(replace, /\[0:a\]/);
    assert.equal(
      dubFilterGraph('duck', 3, false),
      dubFilterGraph('replace', 3, false),
      'a silent video has nothing to duck',
    );
  });
});
