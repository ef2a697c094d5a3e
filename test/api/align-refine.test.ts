import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { REFINE_BOUND_SECONDS } from '../../src/engine/align/refine-boundaries';
import { ALIGN_DEV, alignDevAudio, serverWithVad } from '../helpers/align-dev';
import type { TestServer } from '../helpers/server';
import { installSttModel, sttEngineUnderTest } from '../helpers/stt-engine';

const DURATION = 118.05;

const alignDev = async (t: TestServer) => alignDevAudio(t, await readFile(ALIGN_DEV('dev-a.txt')));

describe('forced alignment refined by an installed whisper model (the random-weight fixture)', () => {
  const servers: TestServer[] = [];
  after(async () => {
    for (const t of servers) await t.dispose();
  });

  it("keeps the same cues, in order, each boundary within the bound of the warp's, and says what refined it", async () => {
    // Two servers: one with no recognizer installed, one with a whisper model.
    servers.push(await serverWithVad());
    const plain = await alignDev(servers[0]);
    assert.equal(plain.job.result.refinedBy, undefined);
    servers.push(await serverWithVad());
    await installSttModel(servers[1].dataDir, sttEngineUnderTest({}));
    const refined = await alignDev(servers[1]);
    assert.equal(refined.job.backend, 'espeak-ng-dtw');
    assert.equal(refined.job.result.refinedBy?.recognizer, 'whisper.cpp', JSON.stringify(refined.job.result));
    assert.equal(refined.job.result.refinedBy.model, 'ggml-synthetic-random.bin');
    assert.ok(refined.job.result.refinedBy.movedBoundaries >= 0 && refined.job.result.refinedBy.agreedWords >= 0);
    assert.equal(refined.job.result.matchedCues, plain.job.result.matchedCues);
    assert.deepEqual(refined.job.result.unmatchedCues, plain.job.result.unmatchedCues);
    assert.deepEqual(
      refined.segments.map((s) => s.text),
      plain.segments.map((s) => s.text),
    );
    assert.deepEqual(
      refined.segments.map((s) => s.words.map((w) => w.text)),
      plain.segments.map((s) => s.words.map((w) => w.text)),
    );
    // Times are rounded to milliseconds on both sides.
    const bound = REFINE_BOUND_SECONDS + 0.002;
    refined.segments.forEach((segment, i) => {
      const before = plain.segments[i];
      assert.ok(
        Math.abs(segment.start - before.start) <= bound && Math.abs(segment.end - before.end) <= bound,
        `cue ${i}: ${before.start}–${before.end} became ${segment.start}–${segment.end}`,
      );
      assert.ok(
        segment.start >= 0 && segment.start < segment.end && segment.end <= DURATION + 0.01,
        `cue ${i}: ${segment.start}–${segment.end}`,
      );
      if (i > 0) assert.ok(segment.start >= refined.segments[i - 1].end, `cue ${i} starts before cue ${i - 1} ends`);
      for (const word of segment.words)
        assert.ok(
          word.start >= segment.start && word.end <= segment.end && word.start <= word.end,
          `cue ${i}: ${word.text}`,
        );
    });
  });
});
