/**
 * The files inside an EPUB or DOCX (both are zip archives), read with fflate and bounded so a hostile archive
 * (a zip bomb, thousands of entries) is refused with one sentence instead of filling memory. Entry names are
 * normalized here, the one place archives are read (`\\` and `./` read as `/` and nothing, a leading `/`
 * dropped), and an archive whose names climb out of it (`../`) is refused, so no name read from a book can
 * place a file outside a folder or outside the archive an export writes.
 */
import { unzipSync } from 'fflate';
import { ManuscriptError } from '../manuscript-files';
import { decodeText } from './text-encoding';

/** The most an archive's entries may hold once uncompressed, all together. */
export const MAX_UNZIPPED_BYTES = 256 * 1024 * 1024;
const MAX_ENTRIES = 10_000;

export class ZipEntries {
  private constructor(
    private readonly files: Record<string, Uint8Array>,
    readonly source: string,
  ) {}

  /** The archive's entries; `source` names the file in refusals. */
  static read(bytes: Uint8Array, source: string): ZipEntries {
    let total = 0;
    let count = 0;
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(bytes, {
        filter: (file) => {
          total += file.originalSize;
          count++;
          if (total > MAX_UNZIPPED_BYTES || count > MAX_ENTRIES) {
            throw new ManuscriptError(
              `${source} unpacks to more than ${MAX_UNZIPPED_BYTES / 1024 / 1024} MB or ${MAX_ENTRIES} files; it is not a book this export reads.`,
            );
          }
          return !file.name.endsWith('/');
        },
      });
    } catch (error) {
      if (error instanceof ManuscriptError) throw error;
      throw new ManuscriptError(`${source} is not a readable zip archive (${(error as Error).message}).`);
    }
    const normalized: Record<string, Uint8Array> = {};
    for (const [name, content] of Object.entries(files)) {
      const safe = normalizeEntryName(name);
      if (safe === undefined)
        throw new ManuscriptError(
          `${source} holds an entry named "${name}", which points outside the archive; it is not a book this export reads.`,
        );
      if (safe === '') continue;
      if (safe in normalized)
        throw new ManuscriptError(`${source} holds two entries named "${safe}"; it is not a book this export reads.`);
      normalized[safe] = content;
    }
    return new ZipEntries(normalized, source);
  }

  names(): string[] {
    return Object.keys(this.files);
  }

  has(name: string): boolean {
    return name in this.files;
  }

  bytes(name: string): Uint8Array {
    const file = this.files[name];
    if (!file) throw new ManuscriptError(`${this.source} lacks ${name}, which its own index names.`);
    return file;
  }

  /** An entry as text, decoded as it says it is encoded (text-encoding.ts), a byte-order mark removed. */
  text(name: string): string {
    return decodeText(this.bytes(name)).text;
  }

  /** The encoding an entry was in (`utf-8`, `windows-1252`, `utf-16le`…). */
  encoding(name: string): string {
    return decodeText(this.bytes(name)).encoding;
  }
}

/**
 * An archive path as this reader names it: separators as `/`, no empty or `.` segments, a `..` taking the
 * segment before it away (empty for a name that is only separators and dots); undefined when the path climbs above the archive's root, is a drive path (`C:`) or
 * holds a NUL, since no book needs such a name and an export that kept it could write outside its own files.
 */
export function normalizeEntryName(name: string): string | undefined {
  if (name.includes('\0') || /^[a-z]:/i.test(name)) return undefined;
  const parts: string[] = [];
  for (const part of name.replace(/\\/g, '/').split('/')) {
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/** `href` (URL-encoded, relative to the file `from`) as an archive path; the fragment is dropped. */
export function resolveHref(from: string, href: string): string {
  const withoutFragment = href.split('#')[0];
  let decoded = withoutFragment;
  try {
    decoded = decodeURIComponent(withoutFragment);
  } catch {
    // An href with a stray % stays as written.
  }
  const parts = from.split('/').slice(0, -1);
  for (const part of decoded.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/** The fragment of an href (`ch1.xhtml#sec2` → `sec2`), or undefined. */
export function hrefFragment(href: string): string | undefined {
  const at = href.indexOf('#');
  return at < 0 || at === href.length - 1 ? undefined : href.slice(at + 1);
}
