export interface TimedText {
  start: number;
  end: number;
  text: string;
}

/**
 * Splits `text` at whitespace and shares the span [start, end] among the words in proportion to their
 * length in characters: the fallback when no per-word timestamps exist. Text without spaces (Chinese,
 * Japanese, Thai) stays one piece.
 * @example estimateWordTimes('ab cd', 0, 1) // [{ start: 0, end: 0.5, text: 'ab' }, { start: 0.5, end: 1, text: 'cd' }]
 */
export function estimateWordTimes(text: string, start: number, end: number): TimedText[] {
  const words = text.split(/\s+/u).filter((word) => word.length > 0);
  return shareSpan(words, start, end);
}

/** Gives each piece a share of [start, end] proportional to its character count, in order, without gaps. */
export function shareSpan(pieces: readonly string[], start: number, end: number): TimedText[] {
  const weights = pieces.map(characterCount);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const span = Math.max(0, end - start);
  let consumed = 0;
  return pieces.map((text, i) => {
    const pieceStart = start + (total === 0 ? 0 : (span * consumed) / total);
    consumed += weights[i] ?? 0;
    const pieceEnd = i === pieces.length - 1 ? end : start + (total === 0 ? 0 : (span * consumed) / total);
    return { start: pieceStart, end: Math.max(pieceStart, pieceEnd), text };
  });
}

/** Length in user-visible characters (code points), not UTF-16 units. */
export function characterCount(text: string): number {
  return Array.from(text).length;
}
