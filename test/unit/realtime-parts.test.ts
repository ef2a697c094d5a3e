/** The live transcription door's pure parts: LocalAgreement-2, turn ends, and the input audio formats. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alawToLinear, audioInput, ulawToLinear } from '../../src/realtime/audio-input';
import { StablePrefix } from '../../src/realtime/stable-prefix';
import { findTurnEnd } from '../../src/realtime/turns';

describe('StablePrefix (LocalAgreement-2)', () => {
  it('releases a word only once two hypotheses in a row agree on it and on all before it', () => {
    const prefix = new StablePrefix();
    assert.deepEqual(prefix.update(['and', 'so']), []);
    assert.deepEqual(prefix.update(['and', 'so', 'my']), ['and', 'so']);
    assert.deepEqual(prefix.update(['and', 'so', 'my', 'fellow']), ['my']);
    assert.equal(prefix.text, 'and so my');
  });

  it('never takes a released word back: a hypothesis that contradicts them releases nothing', () => {
    const prefix = new StablePrefix();
    prefix.update(['ask', 'not']);
    assert.deepEqual(prefix.update(['ask', 'not', 'what']), ['ask', 'not']);
    assert.deepEqual(prefix.update(['task', 'not', 'what']), []);
    assert.deepEqual(prefix.update(['task', 'not', 'what', 'your']), []);
    assert.equal(prefix.text, 'ask not');
    assert.deepEqual(prefix.update(['ask', 'not', 'what', 'your']), []);
    assert.deepEqual(prefix.update(['ask', 'not', 'what', 'your', 'country']), ['what', 'your']);
  });
});

describe('findTurnEnd', () => {
  it('ends the turn at the first speech followed by enough silence, else waits', () => {
    const ranges = [
      { start: 0, end: 100 },
      { start: 150, end: 300 },
      { start: 900, end: 1000 },
    ];
    assert.equal(findTurnEnd(ranges, 1000, 200), 300);
    assert.equal(findTurnEnd(ranges, 1000, 40), 100);
    assert.equal(findTurnEnd(ranges.slice(0, 2), 450, 200), null);
    assert.equal(findTurnEnd(ranges.slice(0, 2), 500, 200), 300);
    assert.equal(findTurnEnd([], 500, 200), null);
  });
});

describe('audioInput', () => {
  it('decodes G.711 by the ITU-T tables', () => {
    assert.equal(ulawToLinear(0xff), 0);
    assert.equal(ulawToLinear(0x00), -32124);
    assert.equal(ulawToLinear(0x80), 32124);
    assert.equal(alawToLinear(0xd5), 8);
    assert.equal(alawToLinear(0x55), -8);
    assert.equal(alawToLinear(0xaa), 32256);
  });

  it("turns 8 kHz G.711 into about twice as many 16 kHz samples (the resampler holds back its filter's tail)", () => {
    const ulaw = audioInput('g711_ulaw');
    const out = [...ulaw.push(Buffer.alloc(800, 0xff)), ...ulaw.push(Buffer.alloc(800, 0xff))];
    assert.ok(out.length > 3000 && out.length <= 3200, String(out.length));
    assert.ok(out.every((sample) => sample === 0));
    const alaw = audioInput('g711_alaw').push(Buffer.alloc(800, 0x55 ^ 0x80 ^ 0x80));
    assert.ok(alaw.length > 1400 && alaw.length <= 1600, String(alaw.length));
  });

  it('resamples 24 kHz pcm16 to 16 kHz across chunks that split samples, keeping a constant level', () => {
    const input = audioInput('pcm16-24k');
    const bytes = Buffer.alloc(2 * 2400);
    for (let i = 0; i < 2400; i += 1) bytes.writeInt16LE(1000, i * 2);
    const out = [...input.push(bytes.subarray(0, 1001)), ...input.push(bytes.subarray(1001))];
    assert.ok(out.length > 1500 && out.length <= 1600, String(out.length));
    // A steady level stays that level once the filter has filled (its first taps see the silence before).
    assert.ok(
      out.slice(100).every((sample) => Math.abs(sample - 1000) <= 2),
      JSON.stringify(out.slice(100, 110)),
    );
  });

  it('passes 16 kHz pcm16 through, carrying an odd byte to the next chunk', () => {
    const input = audioInput('pcm16-16k');
    const bytes = Buffer.from([0x01, 0x02, 0x03, 0x04]);
    assert.deepEqual([...input.push(bytes.subarray(0, 3))], [0x0201]);
    assert.deepEqual([...input.push(bytes.subarray(3))], [0x0403]);
  });
});
