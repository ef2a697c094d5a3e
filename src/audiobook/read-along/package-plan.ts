/**
 * The read-along EPUB 3 planned before synthesis (in the job core): which sentences are read, each with
 * the element id its overlay clip points at, and every file of the book but the audio, overlays and
 * package document. An EPUB input keeps its own documents, images and styles (its XHTML gains only the
 * sentence ids and a link to the highlight style); any other input gets one XHTML document per chapter.
 */
import type { PackageItem, ReadAlongPackage } from '../book-plan';
import type { Chapter, ChapterParagraph } from '../manuscript';
import type { EpubBook } from '../sources/epub-reader';
import { declareUtf8 } from '../sources/text-encoding';
import { escapeXml } from '../sources/xml-tree';
import { sentenceEnds } from '../../text/sentence-breaks';
import { folderOf, READ_ALONG_CSS, relativeHref } from './package-paths';
import { wordAnchors, wordSpans } from './word-anchors';

/** What a read-along book's overlays point at: each sentence, or each word of each sentence. */
export type OverlayLevel = 'sentence' | 'word';

/** Everything the overlays add lives in this folder beside the package document. */
export const READ_ALONG_FOLDER = 'read-along';

const HTML5_DOCTYPE = '<!DOCTYPE html>';
const HTML5_CHARSET_META = '<meta http-equiv="Content-Type" content="text/html; charset=utf-8"/>';
const XML_NAMED = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);
const HTML_NAMED: Record<string, number> = {
  nbsp: 160,
  mdash: 8212,
  ndash: 8211,
  hellip: 8230,
  lsquo: 8216,
  rsquo: 8217,
  ldquo: 8220,
  rdquo: 8221,
  copy: 169,
  reg: 174,
  trade: 8482,
  shy: 173,
  eacute: 233,
  egrave: 232,
  agrave: 224,
  ccedil: 231,
  uuml: 252,
  ouml: 246,
  auml: 228,
  szlig: 223,
};

/**
 * An EPUB 2 document made fit for EPUB 3: the HTML5 doctype (named entities of the old DTDs become numeric
 * references, as XML without a DTD knows only five), an `http-equiv` charset in HTML5's one form, UTF-8 declared (it is written as UTF-8, whatever it was
 * read from), and a link to the highlight style in its head.
 */
function prepareDocument(marked: string, cssHref: string): string {
  let text = declareUtf8(marked)
    // HTML5 allows the http-equiv charset declaration in one form only (EPUB 2 tools write others).
    .replace(/<meta\s[^>]*?http-equiv\s*=\s*["']content-type["'][^>]*?\/?>/gi, HTML5_CHARSET_META)
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/i, HTML5_DOCTYPE);
  text = text.replace(/&([a-z]+);/gi, (whole, name: string) =>
    XML_NAMED.has(name) ? whole : HTML_NAMED[name.toLowerCase()] ? `&#${HTML_NAMED[name.toLowerCase()]};` : whole,
  );
  const link = `<link rel="stylesheet" type="text/css" href="${escapeXml(cssHref)}"/>`;
  return /<\/head\s*>/i.test(text) ? text.replace(/<\/head\s*>/i, `${link}</head>`) : text;
}

const XHTML_TYPES = new Set(['application/xhtml+xml', 'text/html']);

/**
 * The manifest properties EPUB 3 asks of a content document by what it holds (EPUB 2 had none; calibre's
 * cover page is an SVG): `svg`, `mathml`, `scripted`.
 */
function contentProperties(xhtml: string): string[] {
  const found: string[] = [];
  if (/<([\w-]+:)?svg[\s>]/.test(xhtml)) found.push('svg');
  if (/<([\w-]+:)?math[\s>]/.test(xhtml)) found.push('mathml');
  if (/<script[\s>]/i.test(xhtml)) found.push('scripted');
  return found;
}

function navDocument(title: string, language: string, entries: Array<{ title: string; href: string }>): string {
  const items = entries
    .map((entry) => `      <li><a href="${escapeXml(entry.href)}">${escapeXml(entry.title)}</a></li>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${HTML5_DOCTYPE}\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${escapeXml(language)}" lang="${escapeXml(language)}">\n<head><meta charset="UTF-8"/><title>${escapeXml(title)}</title></head>\n<body>\n  <nav epub:type="toc" id="toc">\n    <h1>${escapeXml(title)}</h1>\n    <ol>\n${items}\n    </ol>\n  </nav>\n</body>\n</html>\n`;
}

/**
 * The package around an EPUB's own files; `chapters` are the chosen ones (their sentences carry ids already,
 * and their words too when the overlays are word by word).
 */
export function readAlongFromEpub(
  epub: EpubBook,
  sourceEpub: string,
  chapters: readonly Chapter[],
  level: OverlayLevel = 'sentence',
): ReadAlongPackage {
  const base = folderOf(epub.packagePath);
  const cssPath = `${base}${READ_ALONG_FOLDER}/read-along.css`;
  const read = new Set(
    chapters.flatMap((chapter) => (chapter.paragraphs ?? []).map((paragraph) => paragraph.document ?? '')),
  );
  const written: ReadAlongPackage['written'] = [{ path: cssPath, content: READ_ALONG_CSS }];
  const contents = new Map<string, string>();
  for (const item of epub.manifest) {
    if (!XHTML_TYPES.has(item.mediaType) || !epub.archive.has(item.path)) continue;
    const docPath = item.path;
    const document = epub.documents.get(docPath);
    // A document not read is kept as it is, unless it has an older doctype or an encoding other than
    // UTF-8 or UTF-16, which EPUB 3 does not allow (spine documents and others, such as calibre's notes).
    const raw = document?.marked ?? epub.archive.text(docPath);
    const oldDoctype = /<!DOCTYPE(?!\s+html\s*>)/i.test(raw);
    const oldEncoding = !/^utf-(8|16)/.test(epub.archive.encoding(docPath));
    const marked = document && read.has(docPath) && level === 'word' ? document.markedWords : raw;
    contents.set(docPath, marked);
    if (read.has(docPath) || oldDoctype || oldEncoding)
      written.push({ path: docPath, content: prepareDocument(marked, relativeHref(docPath, cssPath)) });
  }
  const manifest: PackageItem[] = epub.manifest.map((item) => {
    const properties = [
      ...new Set([
        ...(item.properties?.split(/\s+/).filter(Boolean) ?? []),
        ...contentProperties(contents.get(item.path) ?? ''),
      ]),
    ].join(' ');
    return {
      ...item,
      mediaType: item.mediaType === 'text/html' ? 'application/xhtml+xml' : item.mediaType,
      ...(properties ? { properties } : {}),
    };
  });
  const ids = new Set(manifest.map((item) => item.id));
  const freshId = (wanted: string): string => {
    let id = wanted;
    for (let n = 2; ids.has(id); n++) id = `${wanted}-${n}`;
    ids.add(id);
    return id;
  };
  manifest.push({ id: freshId('read-along-css'), path: cssPath, mediaType: 'text/css' });
  if (!manifest.some((item) => item.properties?.split(/\s+/).includes('nav'))) {
    const navPath = `${base}${READ_ALONG_FOLDER}/nav.xhtml`;
    const entries = epub.chapters.map((chapter) => ({
      title: chapter.title,
      href: relativeHref(navPath, chapter.paragraphs[0]?.document ?? epub.spine[0]),
    }));
    written.push({ path: navPath, content: navDocument(epub.title ?? 'Contents', epub.language ?? 'en', entries) });
    manifest.push({
      id: freshId('read-along-nav'),
      path: navPath,
      mediaType: 'application/xhtml+xml',
      properties: 'nav',
    });
  }
  const writtenPaths = new Set(written.map((file) => file.path));
  const copied = [
    ...epub.manifest.map((item) => item.path).filter((item) => !writtenPaths.has(item) && epub.archive.has(item)),
    ...epub.archive.names().filter((name) => name.startsWith('META-INF/') && name !== 'META-INF/container.xml'),
  ];
  return {
    title: epub.title ?? 'Untitled',
    ...(epub.author ? { author: epub.author } : {}),
    language: epub.language ?? 'en',
    identifier: epub.identifier ?? `urn:uuid:${crypto.randomUUID()}`,
    packagePath: epub.packagePath,
    sourceEpub,
    copied,
    written,
    manifest,
    spine: epub.spineItems,
    ...(epub.ncxId ? { ncxId: epub.ncxId } : {}),
  };
}

/** A chapter's paragraphs split into sentences, with ids for a new chapter document `document` (and for their words, when asked). */
export function sentencesOf(
  paragraphs: readonly string[],
  document: string,
  prefix: string,
  language: string,
  level: OverlayLevel = 'sentence',
): ChapterParagraph[] {
  let count = 0;
  return paragraphs.map((paragraph) => {
    const sentences: ChapterParagraph['sentences'] = [];
    let from = 0;
    for (const end of [...sentenceEnds(paragraph, language), paragraph.length]) {
      const text = paragraph.slice(from, end).trim();
      from = Math.max(from, end);
      if (!text) continue;
      if (/[\p{L}\p{N}]/u.test(text) || sentences.length === 0) sentences.push({ id: `${prefix}${++count}`, text });
      else sentences[sentences.length - 1].text += ` ${text}`;
    }
    if (level === 'word')
      for (const sentence of sentences) sentence.words = wordAnchors(sentence.text, `${sentence.id}w`);
    return { document, sentences };
  });
}

/** The chapter document of a book that had none (Markdown, text, DOCX): a heading and paragraphs of sentence spans. */
function chapterDocument(
  title: string,
  language: string,
  paragraphs: readonly ChapterParagraph[],
  cssHref: string,
): string {
  const body = paragraphs
    .map((paragraph, index) => {
      const spans = paragraph.sentences
        .map((sentence) => {
          const heading = /^#{1,6}\s+/.exec(sentence.text)?.[0].length ?? 0;
          return `<span id="${sentence.id}">${sentence.words ? wordSpans(sentence.text, sentence.words, heading) : escapeXml(sentence.text.slice(heading))}</span>`;
        })
        .join(' ');
      const tag = index === 0 && /^#{1,6}\s/.test(paragraph.sentences[0]?.text ?? '') ? 'h1' : 'p';
      return `    <${tag}>${spans}</${tag}>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${HTML5_DOCTYPE}\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${escapeXml(language)}" lang="${escapeXml(language)}">\n<head><meta charset="UTF-8"/><title>${escapeXml(title)}</title><link rel="stylesheet" type="text/css" href="${escapeXml(cssHref)}"/></head>\n<body>\n  <section epub:type="chapter">\n${body}\n  </section>\n</body>\n</html>\n`;
}

/** The archive path of the n-th (0-based) chapter document of a new book. */
export const newChapterPath = (index: number): string => `EPUB/chapter-${String(index + 1).padStart(3, '0')}.xhtml`;

/** A new book's package: `chapters` carry the paragraphs of sentences made by `sentencesOf`. */
export function readAlongFromText(
  book: { title?: string; author?: string; language: string },
  chapters: ReadonlyArray<{ title: string; paragraphs: ChapterParagraph[] }>,
): ReadAlongPackage {
  const packagePath = 'EPUB/package.opf';
  const cssPath = `EPUB/${READ_ALONG_FOLDER}/read-along.css`;
  const navPath = 'EPUB/nav.xhtml';
  const title = book.title ?? chapters[0]?.title ?? 'Untitled';
  const written: ReadAlongPackage['written'] = [{ path: cssPath, content: READ_ALONG_CSS }];
  const manifest: PackageItem[] = [
    { id: 'nav', path: navPath, mediaType: 'application/xhtml+xml', properties: 'nav' },
    { id: 'read-along-css', path: cssPath, mediaType: 'text/css' },
  ];
  const spine: ReadAlongPackage['spine'] = [];
  chapters.forEach((chapter, index) => {
    const docPath = newChapterPath(index);
    written.push({
      path: docPath,
      content: chapterDocument(chapter.title, book.language, chapter.paragraphs, relativeHref(docPath, cssPath)),
    });
    manifest.push({ id: `chapter-${index + 1}`, path: docPath, mediaType: 'application/xhtml+xml' });
    spine.push({ id: `chapter-${index + 1}`, linear: true });
  });
  written.push({
    path: navPath,
    content: navDocument(
      title,
      book.language,
      chapters.map((chapter, index) => ({
        title: chapter.title.replace(/^#{1,6}\s+/, ''),
        href: relativeHref(navPath, newChapterPath(index)),
      })),
    ),
  });
  return {
    title,
    ...(book.author ? { author: book.author } : {}),
    language: book.language,
    identifier: `urn:uuid:${crypto.randomUUID()}`,
    packagePath,
    copied: [],
    written,
    manifest,
    spine,
  };
}
