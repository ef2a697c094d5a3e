import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EnginePhase } from '../../src/engine-api/protocol';
import { createSttProgress } from '../../src/engine/stt/stt-progress';

function recorder() {
  const calls: Array<[EnginePhase, number]> = [];
  return { calls, progress: createSttProgress((phase, value) => calls.push([phase, value])) };
}

describe('createSttProgress', () => {
  it('maps each step into its range of the job', () => {
    const { calls, progress } = recorder();
    progress('decoding', 0.5);
    progress('loading_model', 1);
    progress('transcribing', 0.5);
    progress('diarizing', 0.4);
    progress('postprocessing', 1);
    assert.deepEqual(calls, [
      ['decoding', 5],
      ['loading_model', 15],
      ['transcribing', 52],
      ['diarizing', 92],
      ['postprocessing', 99],
    ]);
  });

  it('reports only rises of a whole percent within a step, but every change of step', () => {
    const { calls, progress } = recorder();
    progress('decoding', 0.01);
    progress('decoding', 0.05);
    progress('decoding', 0.11);
    progress('loading_model', 0);
    assert.deepEqual(calls, [
      ['decoding', 0],
      ['decoding', 1],
      ['loading_model', 10],
    ]);
  });

  it('never goes down and clamps nonsense fractions', () => {
    const { calls, progress } = recorder();
    progress('transcribing', 2);
    progress('transcribing', 0.1);
    progress('diarizing', Number.NaN);
    assert.deepEqual(calls, [
      ['transcribing', 90],
      ['diarizing', 90],
    ]);
  });
});
