/**
 * Word error rate of a recognized text against a reference: the fewest word substitutions, deletions and
 * insertions that turn one into the other, over the reference's word count. Both texts are normalized the
 * way ASR leaderboards do before scoring (case, punctuation, hyphens and apostrophes, spelled-out
 * whitespace), so a recognizer is not charged for writing "Mr." where the reference says "mr".
 */

export interface WordErrors {
  /** (substitutions + deletions + insertions) / referenceWords; 0 for two empty texts. */
  wer: number;
  substitutions: number;
  deletions: number;
  insertions: number;
  referenceWords: number;
}

/** The words a text is scored on: lower case, letters and digits only, apostrophes kept inside words. */
export function scoringWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/-/g, ' ')
    .replace(/[^\p{L}\p{N}'\s]/gu, ' ')
    .split(/\s+/)
    .map((word) => word.replace(/^'+|'+$/g, ''))
    .filter((word) => word !== '');
}

/** The word errors of `hypothesis` against `reference` (Levenshtein distance over words, one row at a time). */
export function wordErrors(reference: string, hypothesis: string): WordErrors {
  const ref = scoringWords(reference);
  const hyp = scoringWords(hypothesis);
  interface Cell {
    cost: number;
    substitutions: number;
    deletions: number;
    insertions: number;
  }
  let previous: Cell[] = hyp.map((_, j) => ({ cost: j + 1, substitutions: 0, deletions: 0, insertions: j + 1 }));
  previous.unshift({ cost: 0, substitutions: 0, deletions: 0, insertions: 0 });
  for (let i = 1; i <= ref.length; i++) {
    const row: Cell[] = [{ cost: i, substitutions: 0, deletions: i, insertions: 0 }];
    for (let j = 1; j <= hyp.length; j++) {
      const same = ref[i - 1] === hyp[j - 1];
      const diagonal = previous[j - 1];
      const up = previous[j];
      const left = row[j - 1];
      const options: Cell[] = [
        { ...diagonal, cost: diagonal.cost + (same ? 0 : 1), substitutions: diagonal.substitutions + (same ? 0 : 1) },
        { ...up, cost: up.cost + 1, deletions: up.deletions + 1 },
        { ...left, cost: left.cost + 1, insertions: left.insertions + 1 },
      ];
      row.push(options.reduce((best, option) => (option.cost < best.cost ? option : best)));
    }
    previous = row;
  }
  const { substitutions, deletions, insertions, cost } = previous[hyp.length];
  const wer = ref.length === 0 ? (hyp.length === 0 ? 0 : 1) : cost / ref.length;
  return { wer, substitutions, deletions, insertions, referenceWords: ref.length };
}

/** The corpus WER of several (reference, hypothesis) pairs: total errors over total reference words. */
export function corpusWordErrors(pairs: ReadonlyArray<{ reference: string; hypothesis: string }>): WordErrors {
  const total: WordErrors = { wer: 0, substitutions: 0, deletions: 0, insertions: 0, referenceWords: 0 };
  for (const pair of pairs) {
    const errors = wordErrors(pair.reference, pair.hypothesis);
    total.substitutions += errors.substitutions;
    total.deletions += errors.deletions;
    total.insertions += errors.insertions;
    total.referenceWords += errors.referenceWords;
  }
  const errors = total.substitutions + total.deletions + total.insertions;
  total.wer = total.referenceWords === 0 ? (errors === 0 ? 0 : 1) : errors / total.referenceWords;
  return total;
}
