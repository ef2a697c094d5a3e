/**
 * An EPUB 2 or 3 read as an audiobook's chapters: the package document (via META-INF/container.xml) gives
 * the metadata, the manifest and the spine; the chapters are the top level of the navigation document
 * (EPUB 3) or the NCX (EPUB 2), in spine order, each running from its link's target to the next chapter's;
 * each spine document's text is read as paragraphs of sentences, with an id on every sentence kept for a
 * read-along book (xhtml-sentences.ts).
 */
import { ManuscriptError } from '../manuscript-files';
import { checkDocumentSize, groupByLength, TextBudget, textLength } from './book-bounds';
import { isMatter, placeMatter, type Matter } from './book-matter';
import type { ChapterParagraph } from '../manuscript';
import { markSentences, type MarkedDocument } from './xhtml-sentences';
import { attr, childElements, descendants, first, parseXml, textOf, type XmlElement } from './xml-tree';
import { hrefFragment, normalizeEntryName, resolveHref, ZipEntries } from './zip-entries';

export interface ManifestItem {
  id: string;
  /** The item's path inside the archive. */
  path: string;
  mediaType: string;
  properties?: string;
}

export interface SourceChapter {
  title: string;
  matter: Matter;
  paragraphs: ChapterParagraph[];
}

export interface EpubBook {
  title: string | undefined;
  author: string | undefined;
  language: string | undefined;
  identifier: string | undefined;
  /** The package document's archive path. */
  packagePath: string;
  manifest: ManifestItem[];
  /** The spine's documents (archive paths), in reading order. */
  spine: string[];
  /** The spine as the package gives it: manifest ids, and whether each is in the linear reading order. */
  spineItems: Array<{ id: string; linear: boolean }>;
  /** The NCX's manifest id, when the book has one. */
  ncxId: string | undefined;
  /** Each spine document with its sentence ids added. */
  documents: Map<string, MarkedDocument>;
  chapters: SourceChapter[];
  archive: ZipEntries;
}

interface TocEntry {
  title: string;
  path: string;
  fragment: string | undefined;
}

const XHTML_TYPES = new Set(['application/xhtml+xml', 'text/html']);

/** An XML entry of the book parsed, once checked not to be too large or too deeply nested to read. */
function parseEntry(archive: ZipEntries, name: string): XmlElement {
  const text = archive.text(name);
  checkDocumentSize(text, `${archive.source} (${name})`);
  return parseXml(text);
}

function navEntries(archive: ZipEntries, navPath: string): { toc: TocEntry[]; landmarks: Map<string, string[]> } {
  const root = parseEntry(archive, navPath);
  const navs = descendants(root, 'nav');
  const typeOf = (nav: XmlElement): string[] => (attr(nav, 'epub:type') ?? '').split(/\s+/);
  const tocNav = navs.find((nav) => typeOf(nav).includes('toc'));
  const toc: TocEntry[] = [];
  const list = tocNav && first(tocNav, 'ol');
  if (list) {
    let items = childElements(list, 'li');
    // A table of contents with one top entry (the book's title, or "Contents") is read one level down.
    if (items.length === 1) {
      const nested = first(items[0], 'ol');
      if (nested) items = childElements(nested, 'li');
    }
    for (const item of items) {
      const link = childElements(item, 'a')[0] ?? first(item, 'a');
      const href = link && attr(link, 'href');
      if (link && href)
        toc.push({ title: textOf(link), path: resolveHref(navPath, href), fragment: hrefFragment(href) });
    }
  }
  const landmarks = new Map<string, string[]>();
  const landmarkNav = navs.find((nav) => typeOf(nav).includes('landmarks'));
  for (const link of landmarkNav ? descendants(landmarkNav, 'a') : []) {
    const href = attr(link, 'href');
    if (!href) continue;
    const target = resolveHref(navPath, href);
    landmarks.set(target, [...(landmarks.get(target) ?? []), ...(attr(link, 'epub:type') ?? '').split(/\s+/)]);
  }
  return { toc, landmarks };
}

function ncxEntries(archive: ZipEntries, ncxPath: string): TocEntry[] {
  const root = parseEntry(archive, ncxPath);
  const navMap = first(root, 'navmap');
  if (!navMap) return [];
  let points = childElements(navMap, 'navpoint');
  if (points.length === 1 && childElements(points[0], 'navpoint').length > 0)
    points = childElements(points[0], 'navpoint');
  return points.flatMap((point) => {
    const src = childElements(point, 'content')[0] && attr(childElements(point, 'content')[0], 'src');
    const label = childElements(point, 'navlabel')[0];
    return src
      ? [{ title: label ? textOf(label) : '', path: resolveHref(ncxPath, src), fragment: hrefFragment(src) }]
      : [];
  });
}

/** Font obfuscation (IDPF's and Adobe's): it hides embedded fonts only, never the text. */
const FONT_OBFUSCATION = new Set(['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#RC']);

/** The entries META-INF/encryption.xml says are encrypted by anything but font obfuscation (DRM). */
function encryptedEntries(archive: ZipEntries): Set<string> {
  const found = new Set<string>();
  if (!archive.has('META-INF/encryption.xml')) return found;
  for (const data of descendants(parseEntry(archive, 'META-INF/encryption.xml'), 'encrypteddata')) {
    const method = first(data, 'encryptionmethod');
    const reference = first(data, 'cipherreference');
    const uri = reference && attr(reference, 'URI');
    if (!uri || FONT_OBFUSCATION.has((method && attr(method, 'Algorithm')) ?? '')) continue;
    // The URIs are relative to the container's root, not to META-INF.
    const name = normalizeEntryName(resolveHref('', uri));
    if (name) found.add(name);
  }
  return found;
}

/** An id prefix (`ss3-`, or `ss3-a-`… when the book already uses such ids) that no id in `source` starts with. */
function freePrefix(source: string, tail: string): string {
  for (let n = 0; ; n++) {
    const prefix = n === 0 ? `ss${tail}` : `ss${tail}${n.toString(36)}-`;
    if (!source.includes(`"${prefix}`) && !source.includes(`'${prefix}`)) return prefix;
  }
}

/** The book in `bytes` (an .epub file's content); `source` names it in refusals. */
export function readEpub(bytes: Uint8Array, source: string): EpubBook {
  const archive = ZipEntries.read(bytes, source);
  if (!archive.has('META-INF/container.xml'))
    throw new ManuscriptError(`${source} is not an EPUB: it has no META-INF/container.xml.`);
  const rootfile = first(parseEntry(archive, 'META-INF/container.xml'), 'rootfile');
  const fullPath = rootfile && attr(rootfile, 'full-path');
  const packagePath = fullPath && normalizeEntryName(fullPath);
  if (!packagePath || !archive.has(packagePath))
    throw new ManuscriptError(`${source} names no package document that it holds.`);
  const opf = parseEntry(archive, packagePath);
  const pkg = first(opf, 'package');
  const metadata = pkg && first(pkg, 'metadata');
  const meta = (name: string): string | undefined => {
    const element = metadata && first(metadata, name);
    const text = element && textOf(element);
    return text || undefined;
  };
  const uniqueId = pkg && attr(pkg, 'unique-identifier');
  const identifierElement =
    metadata &&
    (descendants(metadata, 'identifier').find((element) => attr(element, 'id') === uniqueId) ??
      first(metadata, 'identifier'));

  const manifest: ManifestItem[] = [];
  const byId = new Map<string, ManifestItem>();
  for (const item of pkg ? descendants(pkg, 'item') : []) {
    const id = attr(item, 'id');
    const href = attr(item, 'href');
    if (!id || !href) continue;
    const entry: ManifestItem = {
      id,
      path: resolveHref(packagePath, href),
      mediaType: attr(item, 'media-type') ?? '',
      ...(attr(item, 'properties') ? { properties: attr(item, 'properties') } : {}),
    };
    manifest.push(entry);
    byId.set(id, entry);
  }
  const spineElement = pkg && first(pkg, 'spine');
  // A document listed twice in the spine is read once: a book never means its text twice, and a spine that
  // repeats one document thousands of times would otherwise expand a small file into gigabytes of text.
  const seen = new Set<string>();
  const spineItems = (spineElement ? childElements(spineElement, 'itemref') : [])
    .map((ref) => ({ id: attr(ref, 'idref') ?? '', linear: attr(ref, 'linear') !== 'no' }))
    .filter((ref) => byId.has(ref.id) && !seen.has(ref.id) && seen.add(ref.id));
  const spine = [
    ...new Set(
      spineItems
        .map((ref) => byId.get(ref.id)!)
        .filter((item) => XHTML_TYPES.has(item.mediaType) && archive.has(item.path))
        .map((item) => item.path),
    ),
  ];
  if (spine.length === 0) throw new ManuscriptError(`${source} has no readable documents in its spine.`);
  const encrypted = encryptedEntries(archive);
  if (spine.some((docPath) => encrypted.has(docPath)))
    throw new ManuscriptError(
      `${source} is encrypted (DRM): its text cannot be read. An export reads only books without DRM.`,
    );

  const nav = manifest.find((item) => item.properties?.split(/\s+/).includes('nav'));
  const ncx =
    byId.get((spineElement && attr(spineElement, 'toc')) ?? '') ??
    manifest.find((item) => item.mediaType === 'application/x-dtbncx+xml');
  let toc: TocEntry[] = [];
  const landmarks = new Map<string, string[]>();
  if (nav && archive.has(nav.path)) {
    const read = navEntries(archive, nav.path);
    toc = read.toc;
    read.landmarks.forEach((types, target) => landmarks.set(target, types));
  }
  if (toc.length === 0 && ncx && archive.has(ncx.path)) toc = ncxEntries(archive, ncx.path);
  // A navigation of one entry (calibre's "Start" for a book it found no contents in) says nothing of the
  // chapters: they are taken from the documents' headings, as for a book without navigation.
  if (toc.length === 1) toc = [];
  for (const reference of pkg ? descendants(pkg, 'reference') : []) {
    const href = attr(reference, 'href');
    if (href)
      landmarks.set(resolveHref(packagePath, href), [
        ...(landmarks.get(resolveHref(packagePath, href)) ?? []),
        attr(reference, 'type') ?? '',
      ]);
  }

  const documents = new Map<string, MarkedDocument>();
  const drafts: Array<{ title: string; types: string[]; paragraphs: ChapterParagraph[] }> = [];
  // Every document is measured before any is read, so a book too large is refused before the slow part.
  const budget = new TextBudget(source);
  const texts = spine.map((docPath) => {
    const text = archive.text(docPath);
    checkDocumentSize(text, `${source} (${docPath})`);
    budget.spend(textLength(text));
    return text;
  });
  spine.forEach((docPath, index) => {
    const text = texts[index];
    const document = markSentences(text, freePrefix(text, `${index + 1}-`));
    documents.set(docPath, document);
    const starts = toc.filter((entry) => entry.path === docPath);
    const docTypes = [...document.types, ...(landmarks.get(docPath) ?? [])];
    const open = (title: string): void => void drafts.push({ title, types: docTypes, paragraphs: [] });
    const atStart =
      starts.find((entry) => entry.fragment === undefined) ??
      (toc.length === 0 ? { title: document.heading ?? '' } : undefined);
    if (atStart) open(atStart.title || document.heading || `Part ${drafts.length + 1}`);
    for (const block of document.blocks) {
      for (const entry of starts)
        if (entry.fragment !== undefined && block.anchors.includes(entry.fragment))
          open(entry.title || `Part ${drafts.length + 1}`);
      if (drafts.length === 0)
        open(
          document.heading ??
            docPath
              .split('/')
              .pop()!
              .replace(/\.x?html?$/i, ''),
        );
      // A paragraph too long to read as one passage is read as several, at its sentences.
      for (const sentences of groupByLength(block.sentences, (sentence) => sentence.text.length))
        drafts[drafts.length - 1].paragraphs.push({ document: docPath, sentences });
    }
  });
  const kept = drafts.filter((draft) => draft.paragraphs.length > 0);
  if (kept.length === 0) throw new ManuscriptError(`${source} has no text to read.`);
  const matter = placeMatter(kept.map((draft) => isMatter(draft.types, draft.title)));
  return {
    title: meta('title'),
    author: meta('creator'),
    language: meta('language'),
    identifier: identifierElement ? textOf(identifierElement) || undefined : undefined,
    packagePath,
    manifest,
    spine,
    spineItems,
    ncxId: ncx?.id,
    documents,
    archive,
    chapters: kept.map((draft, index) => ({ title: draft.title, matter: matter[index], paragraphs: draft.paragraphs })),
  };
}
