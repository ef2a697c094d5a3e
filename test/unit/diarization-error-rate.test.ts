/** The DER scorer of `npm run bench -- diarization`: perfect, renamed, missed, false-alarm and confused speech, and RTTM. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diarizationErrorRate, parseRttm } from '../../bench/der';

const reference = [
  { start: 0, end: 2, speaker: 'ann' },
  { start: 2, end: 4, speaker: 'bob' },
];

describe('diarizationErrorRate', () => {
  it('is 0 for the reference itself and for the same turns under other names', () => {
    assert.equal(diarizationErrorRate(reference, reference).der, 0);
    assert.equal(
      diarizationErrorRate(reference, [
        { start: 0, end: 2, speaker: '1' },
        { start: 2, end: 4, speaker: '0' },
      ]).der,
      0,
    );
  });

  it('counts missed speech, false alarms and confusion over the reference speech', () => {
    const missed = diarizationErrorRate(reference, [{ start: 0, end: 2, speaker: 'x' }]);
    assert.ok(Math.abs(missed.der - 0.5) < 1e-9 && Math.abs(missed.missed - 2) < 1e-9);
    const extra = diarizationErrorRate(reference, [...reference, { start: 4, end: 5, speaker: 'bob' }]);
    assert.ok(Math.abs(extra.der - 0.25) < 1e-9 && Math.abs(extra.falseAlarm - 1) < 1e-9);
    const oneSpeaker = diarizationErrorRate(reference, [{ start: 0, end: 4, speaker: 'x' }]);
    assert.ok(Math.abs(oneSpeaker.der - 0.5) < 1e-9 && Math.abs(oneSpeaker.confusion - 2) < 1e-9);
  });

  it('reads the SPEAKER lines of RTTM', () => {
    assert.deepEqual(
      parseRttm(
        'SPEAKER s 1 6.690 0.430 <NA> <NA> speaker90 <NA> <NA>\n\nSPEAKER s 1 7.5 1 <NA> <NA> speaker91 <NA> <NA>\n',
      ),
      [
        { start: 6.69, end: 7.12, speaker: 'speaker90' },
        { start: 7.5, end: 8.5, speaker: 'speaker91' },
      ],
    );
  });
});
