import type { TranscriptSegment } from '../../subtitles/types';
import type { SpeakerTurn } from './diarize';

export interface SpeakerAssignment {
  segments: TranscriptSegment[];
  /** The labels used, in order of first appearance. */
  speakers: string[];
}

/**
 * Gives each segment, and each word, the speaker whose turns overlap it longest (a span no turn overlaps
 * goes to the nearest turn). The diarizer's arbitrary speaker numbers become "Speaker 1", "Speaker 2", …
 * in order of first appearance (a segment before its words). Without turns nothing gets a speaker.
 * @example
 * assignSpeakers([{ start: 0, end: 2, text: 'hi', words: [] }], [{ start: 0, end: 3, speaker: 7 }])
 * // { segments: [{ start: 0, end: 2, text: 'hi', speaker: 'Speaker 1', words: [] }], speakers: ['Speaker 1'] }
 */
export function assignSpeakers(
  segments: readonly TranscriptSegment[],
  turns: readonly SpeakerTurn[],
): SpeakerAssignment {
  const ordered = [...turns].sort((a, b) => a.start - b.start);
  const labels = new Map<number, string>();
  const labelOf = (speaker: number | null): string | undefined => {
    if (speaker === null) return undefined;
    let label = labels.get(speaker);
    if (label === undefined) {
      label = `Speaker ${labels.size + 1}`;
      labels.set(speaker, label);
    }
    return label;
  };
  const assigned = segments.map((segment) => {
    const speaker = labelOf(speakerOf(segment.start, segment.end, ordered));
    const words = segment.words.map((word) => withSpeaker(word, labelOf(speakerOf(word.start, word.end, ordered))));
    return { ...withSpeaker({ start: segment.start, end: segment.end, text: segment.text }, speaker), words };
  });
  return { segments: assigned, speakers: [...labels.values()] };
}

function withSpeaker<T extends object>(item: T, speaker: string | undefined): T & { speaker?: string } {
  return speaker === undefined ? { ...item } : { ...item, speaker };
}

/** The speaker with the largest total overlap with [start, end], else of the nearest turn; null without turns. */
function speakerOf(start: number, end: number, ordered: readonly SpeakerTurn[]): number | null {
  const overlap = new Map<number, number>();
  for (const turn of ordered) {
    const shared = Math.min(end, turn.end) - Math.max(start, turn.start);
    if (shared > 0) overlap.set(turn.speaker, (overlap.get(turn.speaker) ?? 0) + shared);
  }
  let best: number | null = null;
  let bestOverlap = 0;
  // Map iteration follows insertion, i.e. each speaker's earliest overlapping turn: ties go to the earlier.
  for (const [speaker, shared] of overlap) {
    if (shared > bestOverlap) {
      best = speaker;
      bestOverlap = shared;
    }
  }
  if (best !== null) return best;
  let nearestDistance = Infinity;
  for (const turn of ordered) {
    const distance = Math.max(0, turn.start - end, start - turn.end);
    if (distance < nearestDistance) {
      best = turn.speaker;
      nearestDistance = distance;
    }
  }
  return best;
}
