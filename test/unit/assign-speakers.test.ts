import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assignSpeakers } from '../../src/engine/stt/assign-speakers';
import type { TranscriptSegment } from '../../src/subtitles/types';

const word = (start: number, end: number, text: string) => ({ start, end, text, probability: null });

describe('assignSpeakers', () => {
  it('gives each segment the speaker with the largest overlap and numbers speakers by first appearance', () => {
    const segments: TranscriptSegment[] = [
      { start: 0, end: 4, text: 'one two', words: [word(0, 1, 'one'), word(3, 4, 'two')] },
      { start: 5, end: 6, text: 'three', words: [word(5, 6, 'three')] },
    ];
    // Diarizer ids are arbitrary: 7 speaks first, so 7 becomes Speaker 1.
    const turns = [
      { start: 0, end: 2.5, speaker: 7 },
      { start: 2.5, end: 4, speaker: 3 },
      { start: 4.5, end: 6.5, speaker: 3 },
    ];
    assert.deepEqual(assignSpeakers(segments, turns), {
      segments: [
        {
          start: 0,
          end: 4,
          text: 'one two',
          speaker: 'Speaker 1',
          words: [
            { ...word(0, 1, 'one'), speaker: 'Speaker 1' },
            { ...word(3, 4, 'two'), speaker: 'Speaker 2' },
          ],
        },
        {
          start: 5,
          end: 6,
          text: 'three',
          speaker: 'Speaker 2',
          words: [{ ...word(5, 6, 'three'), speaker: 'Speaker 2' }],
        },
      ],
      speakers: ['Speaker 1', 'Speaker 2'],
    });
  });

  it('adds up the overlap of all turns of one speaker', () => {
    const segments: TranscriptSegment[] = [{ start: 0, end: 10, text: 'x', words: [] }];
    const turns = [
      { start: 0, end: 3, speaker: 0 },
      { start: 3, end: 7, speaker: 1 },
      { start: 7, end: 10, speaker: 0 },
    ];
    assert.equal(assignSpeakers(segments, turns).segments[0]?.speaker, 'Speaker 1');
    assert.deepEqual(assignSpeakers(segments, turns).speakers, ['Speaker 1']);
  });

  it('gives a span that no turn overlaps to the nearest turn', () => {
    const segments: TranscriptSegment[] = [{ start: 10, end: 11, text: 'late', words: [] }];
    const turns = [
      { start: 0, end: 2, speaker: 0 },
      { start: 12, end: 13, speaker: 1 },
    ];
    assert.equal(assignSpeakers(segments, turns).segments[0]?.speaker, 'Speaker 1');
  });

  it('breaks a tie in overlap toward the speaker whose turn came first', () => {
    const segments: TranscriptSegment[] = [{ start: 0, end: 2, text: 'tie', words: [] }];
    const turns = [
      { start: 1, end: 2, speaker: 5 },
      { start: 0, end: 1, speaker: 9 },
    ];
    assert.equal(assignSpeakers(segments, turns).segments[0]?.speaker, 'Speaker 1');
    assert.deepEqual(assignSpeakers(segments, turns).speakers, ['Speaker 1']);
  });

  it('assigns nothing and lists no speakers when the diarizer found no turns', () => {
    const segments: TranscriptSegment[] = [{ start: 0, end: 1, text: 'a', words: [word(0, 1, 'a')] }];
    assert.deepEqual(assignSpeakers(segments, []), { segments, speakers: [] });
  });
});
