/**
 * The one reading of a `Range` request header for files the server sends whole otherwise (a job's output):
 * a single `bytes` range is served (206); one past the end is refused (416); anything else (several
 * ranges, another unit, a malformed header, an `If-Range` we cannot check) gets the whole file, as RFC 9110
 * lets a server do.
 */
export type ByteRange = { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/;

export function byteRange(header: string | undefined, size: number, ifRange?: string): ByteRange {
  if (!header || ifRange !== undefined) return { kind: 'whole' };
  const match = SINGLE_RANGE.exec(header);
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Number(match[2]);
  if (match[2] !== '' && end < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end: Math.min(end, size - 1) };
}
