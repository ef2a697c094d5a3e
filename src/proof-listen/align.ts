/**
 * Word alignment of what was written against what was heard: edit distance (Needleman–Wunsch) over tokens, returning which tokens match, which were substituted, deleted (skipped) or inserted (added).
 * A book has tens of thousands of words, so the alignment runs in windows: each window aligns the next
 * `window` source tokens against a proportional stretch of heard tokens, and only the first part of its path
 * (up to its last match there) is kept before the next window starts from that point. Memory stays at one
 * window's traceback and time grows linearly with the length.
 */

export type AlignOp =
  | { type: 'match' | 'substitute'; a: number; b: number }
  | { type: 'delete'; a: number }
  | { type: 'insert'; b: number };

export interface AlignOptions {
  /** Source tokens per window (default 400). */
  window?: number;
}

// A substitution costs less than a deletion and an insertion (so "win" for "Nguyen" pairs them), but two
// substitutions cost more than a deletion and an insertion around a match (so a shift keeps its matches).
const INDEL = 2;
const SUBSTITUTE = 3;

const DIAGONAL = 0;
const UP = 1; // a source token with no heard token: deleted
const LEFT = 2; // a heard token with no source token: inserted

/**
 * The alignment of `a` (written) with `b` (heard) as operations in order; every index of both appears once.
 * @example alignTokens(['a', 'b', 'c'], ['a', 'c', 'd']).map((op) => op.type)
 * // ['match', 'delete', 'match', 'insert']
 */
export function alignTokens(a: readonly string[], b: readonly string[], options: AlignOptions = {}): AlignOp[] {
  const window = options.window ?? 400;
  if (!Number.isInteger(window) || window < 4)
    throw new TypeError(`Expected a window of at least 4 tokens, got ${String(options.window)}`);
  const ops: AlignOp[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length) {
    const aEnd = Math.min(a.length, i + window);
    const last = aEnd === a.length;
    // The heard stretch in proportion to what is left, with room for a long insertion or a skipped passage.
    const ratio = (b.length - j) / (a.length - i);
    const bEnd = last ? b.length : Math.min(b.length, j + Math.ceil((aEnd - i) * Math.min(ratio, 4)) + window);
    const path = alignWindow(a, b, i, aEnd, j, bEnd, last);
    const keep = last
      ? path.length
      : keepUntil(path, i + Math.ceil((3 * (aEnd - i)) / 4), i + Math.ceil((aEnd - i) / 4));
    for (let k = 0; k < keep; k++) ops.push(path[k]);
    for (let k = 0; k < keep; k++) {
      const op = path[k];
      if (op.type !== 'insert') i = op.a + 1;
      if (op.type !== 'delete') j = op.b + 1;
    }
  }
  for (; j < b.length; j++) ops.push({ type: 'insert', b: j });
  return ops;
}

/**
 * How many operations of a window's path to keep: through its last match before source token `before`,
 * unless that is earlier than `atLeast` (a stretch with no matches): then through source token `before`.
 */
function keepUntil(path: readonly AlignOp[], before: number, atLeast: number): number {
  let lastMatch = -1;
  let cut = path.length;
  for (let k = 0; k < path.length; k++) {
    const op = path[k];
    if (op.type === 'insert') continue;
    if (op.a >= before) {
      cut = k;
      break;
    }
    if (op.type === 'match') lastMatch = k;
  }
  return lastMatch >= 0 && (path[lastMatch] as { a: number }).a >= atLeast ? lastMatch + 1 : cut;
}

/**
 * The cheapest path through a[aStart, aEnd) × b[bStart, bEnd). The whole source stretch is aligned; the
 * heard stretch must be used up only in the last window (`closed`), elsewhere the path may end early in it.
 */
function alignWindow(
  a: readonly string[],
  b: readonly string[],
  aStart: number,
  aEnd: number,
  bStart: number,
  bEnd: number,
  closed: boolean,
): AlignOp[] {
  const rows = aEnd - aStart;
  const cols = bEnd - bStart;
  const width = cols + 1;
  const from = new Uint8Array((rows + 1) * width);
  let previous = new Int32Array(width);
  let current = new Int32Array(width);
  for (let c = 1; c <= cols; c++) {
    previous[c] = c * INDEL;
    from[c] = LEFT;
  }
  for (let r = 1; r <= rows; r++) {
    const token = a[aStart + r - 1];
    current[0] = r * INDEL;
    from[r * width] = UP;
    for (let c = 1; c <= cols; c++) {
      const diagonal = previous[c - 1] + (token === b[bStart + c - 1] ? 0 : SUBSTITUTE);
      const up = previous[c] + INDEL;
      const left = current[c - 1] + INDEL;
      let best = diagonal;
      let step = DIAGONAL;
      if (up < best) {
        best = up;
        step = UP;
      }
      if (left < best) {
        best = left;
        step = LEFT;
      }
      current[c] = best;
      from[r * width + c] = step;
    }
    [previous, current] = [current, previous];
  }
  // `previous` holds the last row: where the path ends in the heard stretch.
  let c = cols;
  if (!closed) for (let k = cols - 1; k >= 0; k--) if (previous[k] < previous[c]) c = k;
  let r = rows;
  const path: AlignOp[] = [];
  while (r > 0 || c > 0) {
    const step = from[r * width + c];
    if (step === DIAGONAL && r > 0 && c > 0) {
      const ai = aStart + r - 1;
      const bi = bStart + c - 1;
      path.push({ type: a[ai] === b[bi] ? 'match' : 'substitute', a: ai, b: bi });
      r--;
      c--;
    } else if (step === UP || c === 0) {
      path.push({ type: 'delete', a: aStart + r - 1 });
      r--;
    } else {
      path.push({ type: 'insert', b: bStart + c - 1 });
      c--;
    }
  }
  return path.reverse();
}
