import { characterCount } from './word-timing';

/** A piece of cue text: a word, or a slice of a word too long for one line (`glued` to the piece before). */
export interface TextPiece {
  text: string;
  glued: boolean;
}

/** Joins pieces with single spaces, except glued slices of one long word. */
export function joinPieces(pieces: readonly TextPiece[]): string {
  let line = '';
  pieces.forEach((piece, i) => {
    line += i === 0 || piece.glued ? piece.text : ` ${piece.text}`;
  });
  return line;
}

/**
 * Breaks pieces into the fewest lines of at most `maxLineChars` characters, at most `maxLines` of them,
 * choosing the breaks that make the longest line shortest (so two lines break near the middle).
 * Returns null when the pieces do not fit.
 * @example layoutLines(pieces('ask not what your country can do for you ask what'), 42, 2)
 * // ['ask not what your country', 'can do for you ask what']
 */
export function layoutLines(pieces: readonly TextPiece[], maxLineChars: number, maxLines: number): string[] | null {
  if (pieces.length === 0) return null;
  const n = pieces.length;
  const width = (from: number, to: number): number => characterCount(joinPieces(pieces.slice(from, to)));

  for (let lines = 1; lines <= maxLines; lines += 1) {
    const breaks = bestBreaks(n, lines, width, maxLineChars);
    if (breaks) {
      const bounds = [0, ...breaks, n];
      return bounds.slice(0, -1).map((from, i) => joinPieces(pieces.slice(from, bounds[i + 1])));
    }
  }
  return null;
}

/** Break positions (piece indexes where a new line starts) for exactly `lines` lines, or null if none fits. */
function bestBreaks(
  n: number,
  lines: number,
  width: (from: number, to: number) => number,
  maxLineChars: number,
): number[] | null {
  if (lines > n) return null;
  if (lines === 1) return width(0, n) <= maxLineChars ? [] : null;
  // cost[l][i]: smallest longest line for pieces i..n-1 on l lines; next[l][i]: where line 2 of that starts.
  const cost: number[][] = [];
  const next: number[][] = [];
  for (let l = 1; l <= lines; l += 1) {
    cost[l] = new Array<number>(n + 1).fill(Infinity);
    next[l] = new Array<number>(n + 1).fill(-1);
  }
  for (let i = 0; i < n; i += 1) {
    const w = width(i, n);
    if (w <= maxLineChars) cost[1][i] = w;
  }
  for (let l = 2; l <= lines; l += 1) {
    for (let i = 0; i < n; i += 1) {
      for (let j = i + 1; j < n; j += 1) {
        const first = width(i, j);
        if (first > maxLineChars) break;
        const candidate = Math.max(first, cost[l - 1][j]);
        // Strictly smaller only, so ties keep the earlier break: a shorter top line.
        if (candidate < cost[l][i]) {
          cost[l][i] = candidate;
          next[l][i] = j;
        }
      }
    }
  }
  if (!Number.isFinite(cost[lines][0])) return null;
  const breaks: number[] = [];
  let at = 0;
  for (let l = lines; l > 1; l -= 1) {
    at = next[l][at];
    breaks.push(at);
  }
  return breaks;
}
