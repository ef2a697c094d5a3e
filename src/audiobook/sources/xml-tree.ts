/**
 * XML (OPF, NCX, container.xml, DOCX parts) and XHTML read as a tree with source offsets, by htmlparser2 in
 * XML mode, plus the few lookups the book readers need. Names are matched by their local part, so
 * `dc:title`, `opf:item` and `item` all answer to their unprefixed name.
 */
import { parseDocument } from 'htmlparser2';

/** The parts of htmlparser2's nodes that the readers use. */
export interface XmlNode {
  type: string;
  parent: XmlNode | null;
  startIndex: number | null;
  endIndex: number | null;
}
export interface XmlElement extends XmlNode {
  name: string;
  attribs: Record<string, string>;
  children: XmlNode[];
}
export interface XmlText extends XmlNode {
  data: string;
}

/** The document's root node; text is kept raw (entities undecoded), so offsets match the source. */
export function parseXml(source: string): XmlElement {
  return parseDocument(source, {
    xmlMode: true,
    withStartIndices: true,
    withEndIndices: true,
    decodeEntities: false,
  }) as unknown as XmlElement;
}

export function isElement(node: XmlNode): node is XmlElement {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

export function isText(node: XmlNode): node is XmlText {
  return node.type === 'text' || node.type === 'cdata';
}

export const localName = (name: string): string => name.slice(name.lastIndexOf(':') + 1).toLowerCase();

/** An attribute by its local name (`epub:type` answers to `type` only when asked with the prefix). */
export function attr(element: XmlElement, name: string): string | undefined {
  if (name in element.attribs) return element.attribs[name];
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(element.attribs))
    if (localName(key) === wanted && !key.includes(':') === !name.includes(':')) return value;
  return undefined;
}

/** Every descendant element with the local name, in document order (iteratively: books may nest deep). */
export function descendants(root: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const stack: XmlNode[] = [...root.children].reverse();
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (!isElement(node)) continue;
    if (localName(node.name) === name) found.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return found;
}

export function first(root: XmlElement, name: string): XmlElement | undefined {
  return descendants(root, name)[0];
}

/** The element's children that are elements with the local name. */
export function childElements(element: XmlElement, name?: string): XmlElement[] {
  return element.children.filter(
    (child): child is XmlElement => isElement(child) && (name === undefined || localName(child.name) === name),
  );
}

/** The element's text, entities decoded and whitespace collapsed. */
export function textOf(element: XmlNode): string {
  const parts: string[] = [];
  const stack: XmlNode[] = [element];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (isText(node)) parts.push(node.data);
    else if (isElement(node) && !['script', 'style'].includes(localName(node.name)))
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return speakable(parts.join(''));
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
};

/** Raw XML text as read aloud: character references decoded, whitespace collapsed. */
export function speakable(raw: string): string {
  return raw
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
      if (ref[0] === '#') {
        const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
      }
      return NAMED[ref.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

export { escapeXml } from '../../text/escape-xml';
