/**
 * Diarization error rate, as NIST md-eval scores it without a forgiveness collar: on 10 ms frames, missed
 * speech + false alarm + speaker confusion over the reference's speech, after mapping each hypothesis speaker
 * to at most one reference speaker so that they overlap the most. Also reads RTTM files.
 */

export interface Turn {
  start: number;
  end: number;
  speaker: string;
}

export interface DerScore {
  der: number;
  missed: number;
  falseAlarm: number;
  confusion: number;
  /** Seconds of reference speech (speaker-weighted: two speakers at once count twice). */
  referenceSeconds: number;
}

const FRAME = 0.01;

/** The SPEAKER lines of an RTTM file: `SPEAKER <file> <channel> <start> <duration> <NA> <NA> <speaker> …`. */
export function parseRttm(text: string): Turn[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('SPEAKER '))
    .map((line) => {
      const fields = line.trim().split(/\s+/);
      const start = Number(fields[3]);
      return { start, end: start + Number(fields[4]), speaker: fields[7] };
    });
}

function frames(turns: readonly Turn[], count: number): Array<Set<string>> {
  const sets = Array.from({ length: count }, () => new Set<string>());
  for (const turn of turns) {
    for (let f = Math.max(0, Math.round(turn.start / FRAME)); f < Math.min(count, Math.round(turn.end / FRAME)); f += 1)
      sets[f].add(turn.speaker);
  }
  return sets;
}

/** The hypothesis→reference mapping with the most overlap (every permutation up to 7 speakers, then greedy). */
function bestMapping(overlap: Map<string, Map<string, number>>, refs: string[], hyps: string[]): Map<string, string> {
  const score = (pairs: Array<[string, string]>): number =>
    pairs.reduce((sum, [h, r]) => sum + (overlap.get(h)?.get(r) ?? 0), 0);
  if (hyps.length <= 7 && refs.length <= 7) {
    let best: Array<[string, string]> = [];
    let bestScore = -1;
    const walk = (i: number, used: Set<string>, pairs: Array<[string, string]>): void => {
      if (i === hyps.length) {
        const s = score(pairs);
        if (s > bestScore) [best, bestScore] = [[...pairs], s];
        return;
      }
      walk(i + 1, used, pairs); // this hypothesis speaker maps to nobody
      for (const r of refs) {
        if (used.has(r)) continue;
        used.add(r);
        walk(i + 1, used, [...pairs, [hyps[i], r]]);
        used.delete(r);
      }
    };
    walk(0, new Set(), []);
    return new Map(best);
  }
  const pairs = hyps
    .flatMap((h) => refs.map((r) => ({ h, r, o: overlap.get(h)?.get(r) ?? 0 })))
    .sort((a, b) => b.o - a.o);
  const mapping = new Map<string, string>();
  const taken = new Set<string>();
  for (const { h, r } of pairs)
    if (!mapping.has(h) && !taken.has(r)) {
      mapping.set(h, r);
      taken.add(r);
    }
  return mapping;
}

export function diarizationErrorRate(reference: readonly Turn[], hypothesis: readonly Turn[]): DerScore {
  const end = Math.max(0, ...reference.map((t) => t.end), ...hypothesis.map((t) => t.end));
  const count = Math.ceil(end / FRAME);
  const ref = frames(reference, count);
  const hyp = frames(hypothesis, count);
  const overlap = new Map<string, Map<string, number>>();
  for (let f = 0; f < count; f += 1) {
    for (const h of hyp[f])
      for (const r of ref[f]) {
        const row = overlap.get(h) ?? new Map<string, number>();
        row.set(r, (row.get(r) ?? 0) + 1);
        overlap.set(h, row);
      }
  }
  const mapping = bestMapping(
    overlap,
    [...new Set(reference.map((t) => t.speaker))],
    [...new Set(hypothesis.map((t) => t.speaker))],
  );
  let missed = 0;
  let falseAlarm = 0;
  let confusion = 0;
  let total = 0;
  for (let f = 0; f < count; f += 1) {
    const r = ref[f].size;
    const h = hyp[f].size;
    total += r;
    missed += Math.max(0, r - h);
    falseAlarm += Math.max(0, h - r);
    let correct = 0;
    for (const speaker of hyp[f]) if (ref[f].has(mapping.get(speaker) ?? '')) correct += 1;
    confusion += Math.min(r, h) - correct;
  }
  const seconds = (frames: number): number => frames * FRAME;
  return {
    der: total === 0 ? 0 : (missed + falseAlarm + confusion) / total,
    missed: seconds(missed),
    falseAlarm: seconds(falseAlarm),
    confusion: seconds(confusion),
    referenceSeconds: seconds(total),
  };
}
