import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { ALIGN_DEV as DEV, alignDevAudio, serverWithVad } from '../helpers/align-dev';
import type { TestServer } from '../helpers/server';

interface Truth {
  sentences: Array<{ start: number; end: number; text: string }>;
}

const quantile = (values: readonly number[], q: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

/**
 * Aligns `lines` to dev-a.wav and checks what the bench checks on real speech. Both cases share one server:
 * the aligner speaks on an espeak instance of the job's own, so an earlier job does not change a later one.
 */
async function alignAndCheck(t: TestServer, lines: string[], foreign: readonly string[]): Promise<void> {
  const { job, segments } = await alignDevAudio(t, Buffer.from(lines.join('\n')));
  // Exactly the lines the reader never said are reported, by their number in the script.
  assert.deepEqual(
    job.result.unmatchedCues,
    foreign.map((text) => ({ index: lines.indexOf(text) + 1, text })),
  );
  assert.equal(job.result.matchedCues, lines.length - foreign.length);
  assert.deepEqual(
    segments.map((s) => s.text),
    lines.filter((line) => !foreign.includes(line)),
  );
  // Every spoken line is placed on its own speech, within the bench's bounds (median 40 ms, p90 120 ms).
  const truth = JSON.parse(await readFile(DEV('dev-a.truth.json'), 'utf8')) as Truth;
  const errors = segments.flatMap((segment) => {
    const said = truth.sentences.find((sentence) => sentence.text === segment.text)!;
    return [Math.abs(segment.start - said.start), Math.abs(segment.end - said.end)];
  });
  assert.ok(
    quantile(errors, 0.5) <= 0.04 && quantile(errors, 0.9) <= 0.12,
    `median ${quantile(errors, 0.5)} s, p90 ${quantile(errors, 0.9)} s`,
  );
  segments.forEach((segment, i) => {
    const said = truth.sentences.find((sentence) => sentence.text === segment.text)!;
    // No line is put on another's speech: each overlaps its own sentence by more than half.
    const overlap = Math.min(segment.end, said.end) - Math.max(segment.start, said.start);
    assert.ok(
      overlap > 0.5 * (said.end - said.start),
      `line "${segment.text}" at ${segment.start}–${segment.end}, said at ${said.start}–${said.end}`,
    );
    if (i > 0) assert.ok(segment.start >= segments[i - 1].end);
  });
}

describe('forced alignment of a script that does not match the audio', () => {
  let t: TestServer;
  before(async () => {
    t = await serverWithVad();
  });
  after(async () => {
    await t?.dispose();
  });
  const lines = (): Promise<string[]> =>
    readFile(DEV('dev-a.txt'), 'utf8').then((text) => text.split('\n').filter((line) => line.trim() !== ''));
  const foreign = [
    'The quarterly budget review has been moved to Thursday afternoon in the large meeting room.',
    'Please remember to bring your laptop charger and the printed copies of the new safety policy.',
  ];

  it('reports a paragraph the reader never said, and aligns every line that was said', async () => {
    const script = await lines();
    await alignAndCheck(t, [...script.slice(0, 15), ...foreign, ...script.slice(15)], foreign);
  });

  it('aligns every line around a paragraph missing from the script, its neighbours on their own speech', async () => {
    const script = await lines();
    // Lines 21–23 (8.5 s of speech) are read but not in the script.
    await alignAndCheck(t, [...script.slice(0, 20), ...script.slice(23)], []);
  });

  it('keeps lines 20 and 27 on their own speech when the script lacks lines 21–26 (23 s the reader said)', async () => {
    const script = await lines();
    await alignAndCheck(t, [...script.slice(0, 20), ...script.slice(26)], []);
  });
});
