/**
 * PostgreSQL's `text` and `jsonb` cannot hold U+0000 (NUL): a statement carrying one fails. Input that is
 * stored is checked for it where it enters the relay (the API routes, the portal and CLI through this
 * folder's functions), so the caller hears which field, not the database's complaint.
 */
const NUL = '\u0000';

export const NUL_REFUSED = 'must not contain the NUL character (U+0000), which the relay cannot store';

/** The path (`text`, `a.b`, `list.2`) of the first string or key in `value` holding NUL, or undefined. */
export function nulPath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path || 'value' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (key.includes(NUL)) return here;
    const found = nulPath(item, here);
    if (found !== undefined) return found;
  }
  return undefined;
}

export const hasNul = (text: string): boolean => text.includes(NUL);
