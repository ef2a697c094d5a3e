/**
 * The files inside an EPUB or DOCX (both are zip archives), read with fflate and bounded so a hostile archive
 * (a zip bomb, thousands of entries) is refused with one sentence instead of filling memory.
 */
import { unzipSync, strFromU8 } from 'fflate';
import { ManuscriptError } from '../manuscript-files';

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
    return new ZipEntries(files, source);
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

  /** An entry as UTF-8 text (a byte-order mark removed). */
  text(name: string): string {
    return strFromU8(this.bytes(name)).replace(/^\uFEFF/, '');
  }
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
