/**
 * Paths inside a read-along book's archive, and the relative, URL-encoded hrefs between them that the
 * package document, the overlays and the XHTML use.
 */

/** The href from the file `from` to the file `to` (both archive paths). */
export function relativeHref(from: string, to: string): string {
  const fromParts = from.split('/').slice(0, -1);
  const toParts = to.split('/');
  let common = 0;
  while (common < fromParts.length && common < toParts.length - 1 && fromParts[common] === toParts[common]) common++;
  const up = fromParts.slice(common).map(() => '..');
  return [...up, ...toParts.slice(common)].map((part) => (part === '..' ? part : encodeURIComponent(part))).join('/');
}

/** The folder of an archive path, with a trailing slash (empty for the root). */
export function folderOf(file: string): string {
  const at = file.lastIndexOf('/');
  return at < 0 ? '' : file.slice(0, at + 1);
}

/** A clock value for SMIL and `media:duration` (`h:mm:ss.fff`). */
export function clockValue(seconds: number): string {
  const millis = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(millis / 3_600_000);
  const m = Math.floor((millis % 3_600_000) / 60_000);
  const s = (millis % 60_000) / 1000;
  return `${h}:${String(m).padStart(2, '0')}:${s.toFixed(3).padStart(6, '0')}`;
}

export const ACTIVE_CLASS = '-epub-media-overlay-active';

/** The style a reading system applies to the sentence being read. */
export const READ_ALONG_CSS = `.${ACTIVE_CLASS} {\n  background-color: #ffe98a;\n  color: inherit;\n}\n`;
