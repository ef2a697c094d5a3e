/**
 * Books the tests write themselves: a small EPUB 3 (nav document, landmarks, a cover and a copyright page,
 * two chapters in one document split by a fragment link, inline markup inside and across sentences), an
 * EPUB 2 (NCX, XHTML 1.1 doctype, named entities) and a DOCX (headings as chapters), each zipped with fflate.
 */
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';

const CONTAINER = `<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>`;

function epubZip(files: Record<string, string | Uint8Array>): Uint8Array {
  const zippable: Zippable = { mimetype: [strToU8('application/epub+zip'), { level: 0 }] };
  for (const [name, content] of Object.entries(files))
    zippable[name] = typeof content === 'string' ? strToU8(content) : content;
  return zipSync(zippable);
}

const xhtml = (title: string, body: string, type = ''): string => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en" xml:lang="en">
<head><title>${title}</title><link rel="stylesheet" type="text/css" href="../css/book.css"/></head>
<body${type ? ` epub:type="${type}"` : ''}>
${body}
</body>
</html>`;

/** A 1×1 PNG, so the book has an image the read-along copy must keep. */
export const PIXEL_PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
);

export interface Epub3Options {
  /** Paragraphs of the second chapter, to make a long book for the bench. */
  extraParagraphs?: string[];
}

/** Chapters in order: Cover (front), Copyright (front), The Harbour, The Storm (same file, #storm), Index (back). */
export function makeEpub3(options: Epub3Options = {}): Uint8Array {
  const extra = (options.extraParagraphs ?? []).map((p) => `<p>${p}</p>`).join('\n');
  return epubZip({
    'META-INF/container.xml': CONTAINER,
    'OEBPS/content.opf': `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="uid">urn:uuid:0b7e5c1e-3f0a-4a5e-9d2c-1a2b3c4d5e6f</dc:identifier>
    <dc:title>The Harbour Book</dc:title>
    <dc:creator>Ann Writer</dc:creator>
    <dc:language>en</dc:language>
    <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="css" href="css/book.css" media-type="text/css"/>
    <item id="pixel" href="images/pixel.png" media-type="image/png"/>
    <item id="cover" href="text/cover.xhtml" media-type="application/xhtml+xml"/>
    <item id="copyright" href="text/copyright.xhtml" media-type="application/xhtml+xml"/>
    <item id="chapters" href="text/chapters.xhtml" media-type="application/xhtml+xml"/>
    <item id="index" href="text/index.xhtml" media-type="application/xhtml+xml"/>
  </manifest>
  <spine>
    <itemref idref="cover"/>
    <itemref idref="copyright"/>
    <itemref idref="chapters"/>
    <itemref idref="index"/>
  </spine>
</package>`,
    'OEBPS/nav.xhtml': `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en" xml:lang="en">
<head><title>Contents</title></head>
<body>
  <nav epub:type="toc" id="toc"><h1>Contents</h1><ol>
    <li><a href="text/cover.xhtml">Cover</a></li>
    <li><a href="text/copyright.xhtml">Copyright</a></li>
    <li><a href="text/chapters.xhtml">The Harbour</a></li>
    <li><a href="text/chapters.xhtml#storm">The Storm</a></li>
    <li><a href="text/index.xhtml">Index</a></li>
  </ol></nav>
  <nav epub:type="landmarks"><ol>
    <li><a epub:type="cover" href="text/cover.xhtml">Cover</a></li>
    <li><a epub:type="bodymatter" href="text/chapters.xhtml">Start</a></li>
  </ol></nav>
</body>
</html>`,
    'OEBPS/css/book.css': 'p { text-indent: 1em; }\n',
    'OEBPS/images/pixel.png': PIXEL_PNG,
    'OEBPS/text/cover.xhtml': xhtml(
      'Cover',
      '<section epub:type="cover"><img src="../images/pixel.png" alt="The Harbour Book"/><p>The Harbour Book.</p></section>',
    ),
    'OEBPS/text/copyright.xhtml': xhtml(
      'Copyright',
      '<section epub:type="copyright-page"><p>Copyright 2026 Ann Writer. All rights reserved.</p></section>',
    ),
    'OEBPS/text/chapters.xhtml': xhtml(
      'Chapters',
      `<section epub:type="chapter" id="harbour">
<h1>The Harbour</h1>
<p>Koa arrived at the harbour at dawn. The boats were <em>still</em> asleep.</p>
<p>Mr. Smith waved from the pier &amp; smiled. <em>Welcome home, Koa.</em> She waved back.</p>
</section>
<section epub:type="chapter" id="storm">
<h1>The Storm</h1>
<p>The wind rose in the <em>night. The sea</em> grew loud.</p>
${extra}
</section>`,
    ),
    'OEBPS/text/index.xhtml': xhtml(
      'Index',
      '<section epub:type="index"><p>Harbour, one. Storm, two.</p></section>',
      'backmatter',
    ),
  });
}

/** An EPUB 2: NCX table of contents, XHTML 1.1 documents with a named entity. Chapters: Chapter One, Chapter Two. */
export function makeEpub2(): Uint8Array {
  const doc = (title: string, body: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body>${body}</body></html>`;
  return epubZip({
    'META-INF/container.xml': CONTAINER,
    'OEBPS/content.opf': `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="uid">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
    <dc:identifier id="uid">urn:isbn:9780000000002</dc:identifier>
    <dc:title>Two Chapters</dc:title>
    <dc:creator opf:role="aut">Bob Author</dc:creator>
    <dc:language>en</dc:language>
  </metadata>
  <manifest>
    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
    <item id="c1" href="one.html" media-type="application/xhtml+xml"/>
    <item id="c2" href="two.html" media-type="application/xhtml+xml"/>
  </manifest>
  <spine toc="ncx"><itemref idref="c2"/><itemref idref="c1"/></spine>
  <guide><reference type="text" href="one.html" title="Start"/></guide>
</package>`,
    'OEBPS/toc.ncx': `<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
  <head><meta name="dtb:uid" content="urn:isbn:9780000000002"/></head>
  <docTitle><text>Two Chapters</text></docTitle>
  <navMap>
    <navPoint id="n1" playOrder="1"><navLabel><text>Chapter One</text></navLabel><content src="two.html"/></navPoint>
    <navPoint id="n2" playOrder="2"><navLabel><text>Chapter Two</text></navLabel><content src="one.html"/></navPoint>
  </navMap>
</ncx>`,
    'OEBPS/two.html': doc('One', '<h1>Chapter One</h1><p>The first words&nbsp;came slowly.</p>'),
    'OEBPS/one.html': doc('Two', '<h1>Chapter Two</h1><p>Then the second chapter began.</p>'),
  });
}

/** A DOCX with a title, two Heading 1 chapters (the second with a Heading 2 inside), and a deleted run. */
export function makeDocx(): Uint8Array {
  const p = (text: string, style?: string): string =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>
${p('Before the first heading, a foreword.')}
${p('The Harbour', 'Heading1')}
<w:p><w:r><w:t xml:space="preserve">Koa arrived </w:t></w:r><w:del><w:r><w:delText>never</w:delText></w:r></w:del><w:r><w:t>at dawn.</w:t></w:r></w:p>
${p('A part of it', 'Heading2')}
${p('The boats were asleep.')}
${p('The Storm', 'Heading1')}
${p('The wind rose &amp; the sea grew loud.')}
<w:sectPr/></w:body></w:document>`;
  return zipSync({
    '[Content_Types].xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    ),
    'word/document.xml': strToU8(document),
    'docProps/core.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Harbour Tales</dc:title><dc:creator>Ann Writer</dc:creator></cp:coreProperties>`,
    ),
  });
}

/**
 * A book whose archive names are rewritten as careless or hostile zip tools write them: `absolute` puts a
 * `/` before every name (and `./` inside the META-INF ones), `climbing` moves the package under `../../evil/`
 * (container.xml pointing there) and adds a `META-INF/../../../` entry.
 */
export function makeRenamedEpub(bytes: Uint8Array, how: 'absolute' | 'climbing'): Uint8Array {
  const files = unzipSync(bytes);
  const renamed: Record<string, Uint8Array> = {};
  for (const [name, content] of Object.entries(files)) {
    if (name === 'mimetype') continue;
    if (how === 'absolute') renamed[`/${name.replace(/^META-INF\//, 'META-INF/./')}`] = content;
    else if (name === 'META-INF/container.xml')
      renamed[name] = strToU8(strFromU8(content).replace('full-path="OEBPS/', 'full-path="../../evil/'));
    else renamed[name.replace(/^OEBPS\//, '../../evil/')] = content;
  }
  if (how === 'climbing') renamed['META-INF/../../../evil.txt'] = strToU8('written outside the book');
  else
    renamed['/META-INF/./container.xml'] = strToU8(
      strFromU8(files['META-INF/container.xml']).replace('full-path="OEBPS/', 'full-path="/OEBPS/'),
    );
  return epubZip(renamed);
}

export interface PlainEpubOptions {
  /** The documents (file names beside the package document) and their XHTML (bytes: as encoded), in manifest order. */
  documents: Record<string, string | Uint8Array>;
  /** File names in spine order; a name may repeat. All documents, once each, when absent. */
  spine?: string[];
  /** The NCX, when the book has one. */
  ncx?: string;
  language?: string;
  /** Other entries, by archive path (META-INF/encryption.xml, fonts). */
  extra?: Record<string, string | Uint8Array>;
}

/** A bare EPUB 2 with the documents given, for the tests that probe how much a reader expands. */
export function makePlainEpub(options: PlainEpubOptions): Uint8Array {
  const names = Object.keys(options.documents);
  const id = (name: string): string => `d${names.indexOf(name)}`;
  const files: Record<string, string | Uint8Array> = {
    ...options.extra,
    'META-INF/container.xml': CONTAINER,
    'OEBPS/content.opf': `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="uid">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="uid">urn:uuid:6f1c1a52-9d57-4a0e-8f39-0c7a3b2f1d11</dc:identifier>
    <dc:title>Plain</dc:title>
    <dc:language>${options.language ?? 'en'}</dc:language>
  </metadata>
  <manifest>
${options.ncx ? '    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>\n' : ''}${names.map((name) => `    <item id="${id(name)}" href="${name}" media-type="application/xhtml+xml"/>`).join('\n')}
  </manifest>
  <spine${options.ncx ? ' toc="ncx"' : ''}>${(options.spine ?? names).map((name) => `<itemref idref="${id(name)}"/>`).join('')}</spine>
</package>`,
  };
  if (options.ncx) files['OEBPS/toc.ncx'] = options.ncx;
  for (const [name, text] of Object.entries(options.documents)) files[`OEBPS/${name}`] = text;
  return epubZip(files);
}

/** An XHTML document around `body`. */
export const plainXhtml = (body: string, title = 'Part'): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body>${body}</body></html>`;
