/**
 * The text of a book's XML or XHTML entry, decoded as the entry says it is encoded: by its byte-order mark
 * (UTF-8, UTF-16 LE or BE), by the shape of its first bytes (UTF-16 without a mark), by its XML declaration's
 * `encoding`, or by a `<meta charset>` / `http-equiv` Content-Type in its head; UTF-8 otherwise. Older books
 * are often Latin-1 or windows-1252, and Word can write UTF-16.
 */

/** A decoded entry and the encoding it was in (a WHATWG label: `utf-8`, `windows-1252`, `utf-16le`…). */
export interface DecodedText {
  text: string;
  encoding: string;
}

/** The encoding the first bytes show, before any declaration is read. */
function sniff(bytes: Uint8Array): { encoding: string; skip: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', skip: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', skip: 2 };
  // `<?` or `<h` in UTF-16 without a mark.
  if (bytes[0] === 0x3c && bytes[1] === 0 && bytes[2] !== 0) return { encoding: 'utf-16le', skip: 0 };
  if (bytes[0] === 0 && bytes[1] === 0x3c) return { encoding: 'utf-16be', skip: 0 };
  return undefined;
}

/** The encoding an ASCII-compatible document declares in its XML declaration or its head, if any. */
function declared(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  const label =
    /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1] ??
    /<meta\s[^>]*?\bcharset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  if (!label) return undefined;
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined; // A label no decoder knows is read as UTF-8.
  }
}

export function decodeText(bytes: Uint8Array): DecodedText {
  const marked = sniff(bytes);
  const encoding = marked?.encoding ?? declared(bytes) ?? 'utf-8';
  // A UTF-16 declaration in a file that sniffing found ASCII-compatible cannot be true: read it as UTF-8.
  const used = !marked && encoding.startsWith('utf-16') ? 'utf-8' : encoding;
  const text = new TextDecoder(used).decode(bytes.subarray(marked?.skip ?? 0));
  return { text: text.replace(/^\uFEFF/, ''), encoding: used };
}

/**
 * A document decoded from another encoding and about to be written as UTF-8: its XML declaration and its
 * head's charset say UTF-8 too.
 */
export function declareUtf8(text: string): string {
  return text
    .replace(/^(\s*<\?xml[^>]*?\bencoding\s*=\s*["'])[^"']+(["'])/i, '$1UTF-8$2')
    .replace(/(<meta\s[^>]*?\bcharset\s*=\s*["']?)[\w.:-]+/gi, '$1UTF-8');
}
