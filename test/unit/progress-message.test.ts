import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { progressMessage } from '../../src/editor/progress-message';

describe('progressMessage', () => {
  it('does not repeat the phase the heading already names', () => {
    assert.equal(progressMessage('Transcribing', 'Transcribing', 57.4), '57%');
    assert.equal(progressMessage('Transcribing interview.wav', 'Transcribing', 57), '57%');
  });
  it('names the phase when the heading does not', () => {
    assert.equal(progressMessage('Narrating', 'Synthesizing speech', 20.9), 'Synthesizing speech (20%)');
    assert.equal(progressMessage('Transcribing interview.wav', 'Loading the model', 3), 'Loading the model (3%)');
    assert.equal(progressMessage('Narrating', '', 0), '0%');
  });
});
