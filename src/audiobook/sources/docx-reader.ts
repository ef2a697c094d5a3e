/**
 * A Word document (.docx) read as an audiobook's chapters without a converter: word/document.xml's
 * paragraphs in order, a paragraph styled as a heading (Heading 1…6, Title, or with an outline level)
 * starting a chapter at the document's top heading level (or the one asked for); the title and author come
 * from docProps/core.xml.
 */
import { ManuscriptError } from '../manuscript-files';
import type { Chapter } from '../manuscript';
import {
  attr,
  descendants,
  first,
  isElement,
  localName,
  parseXml,
  speakable,
  textOf,
  type XmlElement,
  type XmlNode,
} from './xml-tree';
import { ZipEntries } from './zip-entries';
import { sentenceEnds } from '../../text/sentence-breaks';
import { checkDocumentSize, cutLongRange, groupByLength, MAX_PARAGRAPH_CHARS, TextBudget } from './book-bounds';

export interface DocxBook {
  title: string | undefined;
  author: string | undefined;
  /** The document's language: its default text language (word/styles.xml), as Word and LibreOffice write it. */
  language: string | undefined;
  chapters: Chapter[];
}

/** The heading level of a paragraph (1–6), or undefined for body text. */
function headingLevel(paragraph: XmlElement): number | undefined {
  const properties = first(paragraph, 'ppr');
  if (!properties) return undefined;
  const style = first(properties, 'pstyle');
  const name = (style && attr(style, 'w:val')) ?? '';
  const numbered = /^heading\s*([1-6])$/i.exec(name) ?? /^berschrift([1-6])$/i.exec(name);
  if (numbered) return Number(numbered[1]);
  if (/^title$/i.test(name)) return 1;
  const outline = first(properties, 'outlinelvl');
  const level = outline ? Number(attr(outline, 'w:val')) : NaN;
  return Number.isInteger(level) && level >= 0 && level <= 5 ? level + 1 : undefined;
}

/** A paragraph's text: its runs' `w:t`, tabs and breaks as spaces; deleted text (`w:del`) left out. */
function paragraphText(paragraph: XmlElement): string {
  const parts: string[] = [];
  // Iteratively: a document may nest its elements deeper than the call stack goes.
  const stack: XmlNode[] = [paragraph];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (!isElement(node)) continue;
    const name = localName(node.name);
    if (name === 'del' || name === 'instrtext') continue;
    if (name === 't')
      parts.push(node.children.map((child) => ('data' in child ? (child as { data: string }).data : '')).join(''));
    else if (name === 'tab' || name === 'br' || name === 'cr') parts.push(' ');
    else for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return speakable(parts.join(''));
}

/** A paragraph too long to read as one passage, cut at its sentences into paragraphs of a readable length. */
function readableParagraphs(text: string): string[] {
  if (text.length <= MAX_PARAGRAPH_CHARS) return [text];
  const sentences: string[] = [];
  let from = 0;
  for (const end of [...sentenceEnds(text), text.length]) {
    for (const [start, stop] of cutLongRange(text, from, end)) sentences.push(text.slice(start, stop).trim());
    from = end;
  }
  return groupByLength(
    sentences.filter((sentence) => sentence.length > 0),
    (sentence) => sentence.length + 1,
  ).map((group) => group.join(' '));
}

export function readDocx(bytes: Uint8Array, source: string, chapterLevel?: number): DocxBook {
  const archive = ZipEntries.read(bytes, source);
  if (!archive.has('word/document.xml'))
    throw new ManuscriptError(`${source} is not a Word document: it has no word/document.xml.`);
  const documentXml = archive.text('word/document.xml');
  checkDocumentSize(documentXml, `${source} (word/document.xml)`);
  const body = first(parseXml(documentXml), 'body');
  const budget = new TextBudget(source);
  const paragraphs = (body ? descendants(body, 'p') : [])
    .map((p) => ({ level: headingLevel(p), text: paragraphText(p) }))
    .filter((p) => /[\p{L}\p{N}]/u.test(p.text))
    .flatMap((p) => {
      budget.spend(p.text.length);
      return p.level === undefined ? readableParagraphs(p.text).map((text) => ({ level: undefined, text })) : [p];
    });
  let title: string | undefined;
  let author: string | undefined;
  if (archive.has('docProps/core.xml')) {
    const core = parseXml(archive.text('docProps/core.xml'));
    title = (first(core, 'title') && textOf(first(core, 'title')!)) || undefined;
    author = (first(core, 'creator') && textOf(first(core, 'creator')!)) || undefined;
  }
  let language: string | undefined;
  if (archive.has('word/styles.xml')) {
    const defaults = first(parseXml(archive.text('word/styles.xml')), 'docdefaults');
    const lang = defaults && first(defaults, 'lang');
    language = (lang && attr(lang, 'w:val')?.trim()) || undefined;
  }
  const levels = paragraphs.flatMap((p) => (p.level === undefined ? [] : [p.level]));
  const level = chapterLevel ?? (levels.length ? Math.min(...levels) : 7);
  const chapters: Chapter[] = [];
  let current: { title: string; lines: string[] } | undefined;
  const close = (): void => {
    if (current && current.lines.some((line) => /[\p{L}\p{N}]/u.test(line)))
      chapters.push({ title: current.title, text: current.lines.join('\n\n') });
  };
  for (const paragraph of paragraphs) {
    if (paragraph.level !== undefined && paragraph.level <= level) {
      close();
      current = { title: paragraph.text, lines: [paragraph.text] };
    } else {
      current ??= {
        title:
          title ??
          source
            .split(/[\\/]/)
            .pop()!
            .replace(/\.docx$/i, ''),
        lines: [],
      };
      current.lines.push(paragraph.text);
    }
  }
  close();
  if (chapters.length === 0) throw new ManuscriptError(`${source} has no text to read.`);
  return { title, author, language, chapters };
}
