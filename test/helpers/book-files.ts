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

const CALIBRE_DOCTYPE =
  '<?xml version=\'1.0\' encoding=\'utf-8\'?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">';

/**
 * An EPUB 2 the way calibre converts a book without a table of contents: the package at the root with
 * `calibre:` metadata, an SVG title page for the cover, XHTML 1.1 documents with an `http-equiv` charset meta
 * and `calibre` classes, and an NCX of one entry ("Start"). Chapters (from the headings): Chapter One, Chapter Two.
 */
export function makeCalibreEpub2(): Uint8Array {
  const part = (body: string): string =>
    `${CALIBRE_DOCTYPE}\n<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en">\n  <head>\n    <meta http-equiv="Content-Type" content="text/html; charset=utf-8"/>\n    <title>Unknown</title>\n    <link href="stylesheet.css" rel="stylesheet" type="text/css"/>\n  </head>\n  <body class="calibre">\n${body}\n  </body>\n</html>\n`;
  return epubZip({
    'META-INF/container.xml': CONTAINER.replace('OEBPS/content.opf', 'content.opf'),
    'content.opf': `<?xml version='1.0' encoding='utf-8'?>
<package xmlns="http://www.idpf.org/2007/opf" unique-identifier="uuid_id" version="2.0">
  <metadata xmlns:calibre="http://calibre.kovidgoyal.net/2009/metadata" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:opf="http://www.idpf.org/2007/opf" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
    <dc:identifier opf:scheme="calibre" id="calibre_id">4d6f2b4e-1c2a-4f0e-9a53-6b7f3c1d2e10</dc:identifier>
    <dc:identifier opf:scheme="uuid" id="uuid_id">9a0c4d2e-7f1b-4c3a-8e5d-2b6a1f0c3d47</dc:identifier>
    <dc:title>The Lighthouse</dc:title>
    <dc:creator opf:file-as="Keeper, Lee" opf:role="aut">Lee Keeper</dc:creator>
    <dc:contributor opf:file-as="calibre" opf:role="bkp">calibre (7.6.0) [https://calibre-ebook.com]</dc:contributor>
    <dc:date>2026-01-01T00:00:00+00:00</dc:date>
    <dc:language>en</dc:language>
    <meta name="calibre:timestamp" content="2026-01-02T10:00:00+00:00"/>
    <meta name="calibre:title_sort" content="Lighthouse, The"/>
    <meta name="cover" content="cover"/>
  </metadata>
  <manifest>
    <item id="cover" href="cover.png" media-type="image/png"/>
    <item id="titlepage" href="titlepage.xhtml" media-type="application/xhtml+xml"/>
    <item id="id1" href="index_split_000.html" media-type="application/xhtml+xml"/>
    <item id="id2" href="index_split_001.html" media-type="application/xhtml+xml"/>
    <item id="page_css" href="stylesheet.css" media-type="text/css"/>
    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
  </manifest>
  <spine toc="ncx">
    <itemref idref="titlepage"/>
    <itemref idref="id1"/>
    <itemref idref="id2"/>
  </spine>
  <guide>
    <reference type="cover" title="Cover" href="titlepage.xhtml"/>
  </guide>
</package>`,
    'toc.ncx': `<?xml version='1.0' encoding='utf-8'?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1" xml:lang="eng">
  <head>
    <meta name="dtb:uid" content="9a0c4d2e-7f1b-4c3a-8e5d-2b6a1f0c3d47"/>
    <meta name="dtb:depth" content="1"/>
    <meta name="dtb:generator" content="calibre (7.6.0)"/>
    <meta name="dtb:totalPageCount" content="0"/>
    <meta name="dtb:maxPageNumber" content="0"/>
  </head>
  <docTitle><text>The Lighthouse</text></docTitle>
  <navMap>
    <navPoint id="num_1" playOrder="1"><navLabel><text>Start</text></navLabel><content src="index_split_000.html"/></navPoint>
  </navMap>
</ncx>`,
    'titlepage.xhtml': `<?xml version='1.0' encoding='utf-8'?>
<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en">
    <head>
        <meta http-equiv="Content-Type" content="text/html; charset=UTF-8"/>
        <meta name="calibre:cover" content="true"/>
        <title>Cover</title>
        <style type="text/css" title="override_css">
            @page {padding: 0pt; margin:0pt}
            body { text-align: center; padding:0pt; margin: 0pt; }
        </style>
    </head>
    <body>
        <div>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" width="100%" height="100%" viewBox="0 0 1 1" preserveAspectRatio="none">
                <image width="1" height="1" xlink:href="cover.png"/>
            </svg>
        </div>
    </body>
</html>
`,
    'cover.png': PIXEL_PNG,
    'stylesheet.css': '.calibre { display: block; }\n.calibre1 { font-weight: bold; }\n',
    'index_split_000.html': part(
      '<h2 class="calibre1" id="calibre_toc_1">Chapter One</h2>\n<p class="calibre2">The lamp turned all night.</p>\n<p class="calibre2">Lee kept it clean.</p>',
    ),
    'index_split_001.html': part(
      '<h2 class="calibre1" id="calibre_toc_2">Chapter Two</h2>\n<p class="calibre2">A ship came in&nbsp;at dawn.</p>',
    ),
  });
}

/**
 * An EPUB 3 the way pandoc writes one: `EPUB/` with a nav and an NCX, a title page, one document per chapter
 * with `section class="level1"` and `data-number` headings. Chapters: Title Page (front), Arrival, Departure.
 */
export function makePandocEpub3(): Uint8Array {
  const page = (title: string, body: string, type = 'bodymatter'): string => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="generator" content="pandoc" />
  <title>${title}</title>
  <link rel="stylesheet" type="text/css" href="../styles/stylesheet1.css" />
</head>
<body epub:type="${type}">
${body}
</body>
</html>
`;
  const container = CONTAINER.replace('OEBPS/content.opf', 'EPUB/content.opf');
  return epubZip({
    'META-INF/container.xml': container,
    'META-INF/com.apple.ibooks.display-options.xml':
      '<?xml version="1.0" encoding="UTF-8"?>\n<display_options><platform name="*"><option name="specified-fonts">true</option></platform></display_options>\n',
    'EPUB/content.opf': `<?xml version="1.0" encoding="UTF-8"?>
<package version="3.0" xmlns="http://www.idpf.org/2007/opf" unique-identifier="epub-id-1" prefix="ibooks: http://vocabulary.itunes.apple.com/rdf/ibooks/vocabulary-extensions-1.0/">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
    <dc:identifier id="epub-id-1">urn:uuid:3e1f0b6a-5c2d-4e8f-9a7b-1c0d2e3f4a5b</dc:identifier>
    <dc:title id="epub-title-1">Two Harbours</dc:title>
    <dc:date id="epub-date">2026-01-01T00:00:00Z</dc:date>
    <dc:language>en-US</dc:language>
    <dc:creator id="epub-creator-1">Pat Writer</dc:creator>
    <meta refines="#epub-creator-1" property="role" scheme="marc:relators">aut</meta>
    <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
    <meta property="ibooks:specified-fonts">true</meta>
  </metadata>
  <manifest>
    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml" />
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav" />
    <item id="stylesheet1" href="styles/stylesheet1.css" media-type="text/css" />
    <item id="title_page_xhtml" href="text/title_page.xhtml" media-type="application/xhtml+xml" />
    <item id="ch001_xhtml" href="text/ch001.xhtml" media-type="application/xhtml+xml" />
    <item id="ch002_xhtml" href="text/ch002.xhtml" media-type="application/xhtml+xml" />
  </manifest>
  <spine toc="ncx">
    <itemref idref="title_page_xhtml" linear="yes" />
    <itemref idref="nav" linear="no" />
    <itemref idref="ch001_xhtml" />
    <itemref idref="ch002_xhtml" />
  </spine>
  <guide>
    <reference type="toc" title="Two Harbours" href="nav.xhtml" />
  </guide>
</package>`,
    'EPUB/toc.ncx': `<?xml version="1.0" encoding="UTF-8"?>
<ncx version="2005-1" xmlns="http://www.daisy.org/z3986/2005/ncx/">
  <head><meta name="dtb:uid" content="urn:uuid:3e1f0b6a-5c2d-4e8f-9a7b-1c0d2e3f4a5b" /><meta name="dtb:depth" content="1" /><meta name="dtb:totalPageCount" content="0" /><meta name="dtb:maxPageNumber" content="0" /></head>
  <docTitle><text>Two Harbours</text></docTitle>
  <navMap>
    <navPoint id="navPoint-0"><navLabel><text>Two Harbours</text></navLabel><content src="text/title_page.xhtml" /></navPoint>
    <navPoint id="navPoint-1"><navLabel><text>Arrival</text></navLabel><content src="text/ch001.xhtml#arrival" /></navPoint>
    <navPoint id="navPoint-2"><navLabel><text>Departure</text></navLabel><content src="text/ch002.xhtml#departure" /></navPoint>
  </navMap>
</ncx>`,
    'EPUB/nav.xhtml': `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en">
<head>
  <meta charset="utf-8" />
  <title>Two Harbours</title>
  <link rel="stylesheet" type="text/css" href="styles/stylesheet1.css" />
</head>
<body epub:type="frontmatter">
<nav epub:type="toc" id="toc">
<h1 id="toc-title">Two Harbours</h1>
<ol class="toc">
<li id="toc-li-1"><a href="text/ch001.xhtml#arrival">Arrival</a></li>
<li id="toc-li-2"><a href="text/ch002.xhtml#departure">Departure</a></li>
</ol>
</nav>
<nav epub:type="landmarks" id="landmarks" hidden="hidden">
<ol>
<li><a href="text/title_page.xhtml" epub:type="titlepage">Title Page</a></li>
<li><a href="text/ch001.xhtml" epub:type="bodymatter">Start</a></li>
<li><a href="#toc" epub:type="toc">Table of Contents</a></li>
</ol>
</nav>
</body>
</html>
`,
    'EPUB/styles/stylesheet1.css': 'body { margin: 5%; }\n',
    'EPUB/text/title_page.xhtml': page(
      'Two Harbours',
      '<section epub:type="titlepage" class="titlepage">\n  <h1 class="title">Two Harbours</h1>\n  <p class="author">Pat Writer</p>\n</section>',
      'frontmatter',
    ),
    'EPUB/text/ch001.xhtml': page(
      'Arrival',
      '<section id="arrival" class="level1" data-number="1">\n<h1 data-number="1"><span class="header-section-number">1</span> Arrival</h1>\n<p>The ferry docked at noon. Gulls <em>everywhere</em>.</p>\n</section>',
    ),
    'EPUB/text/ch002.xhtml': page(
      'Departure',
      '<section id="departure" class="level1" data-number="2">\n<h1 data-number="2"><span class="header-section-number">2</span> Departure</h1>\n<p>They left before the storm.</p>\n</section>',
    ),
  });
}

/**
 * The calibre book as older tools leave it: its second chapter in Latin-1 (said by an `http-equiv` charset),
 * and a notes document in the manifest but not the spine, with the XHTML 1.1 doctype and an `http-equiv`
 * of `application/xhtml+xml` (as InDesign writes it).
 */
export function makeOldEpub2(): Uint8Array {
  const files = unzipSync(makeCalibreEpub2());
  const second = strFromU8(files['index_split_001.html'])
    .replace("encoding='utf-8'", "encoding='iso-8859-1'")
    .replace('charset=utf-8', 'charset=iso-8859-1')
    .replace('A ship came in', 'Café naïve, a ship came in');
  files['index_split_001.html'] = Uint8Array.from(Buffer.from(second, 'latin1'));
  files['notes.xhtml'] = strToU8(
    `${CALIBRE_DOCTYPE}\n<html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="Content-Type" content="application/xhtml+xml; charset=utf-8"/><title>Notes</title></head><body><p id="n1">A note.</p></body></html>\n`,
  );
  files['content.opf'] = strToU8(
    strFromU8(files['content.opf']).replace(
      '<item id="page_css"',
      '<item id="notes" href="notes.xhtml" media-type="application/xhtml+xml"/>\n    <item id="page_css"',
    ),
  );
  delete files.mimetype;
  return epubZip(files);
}

/**
 * A DOCX the way LibreOffice Writer saves one: a Title paragraph, Heading 1 chapters with bookmarks, runs with
 * their own properties, a tab and a soft hyphen, the language in word/styles.xml, the parts listed in
 * [Content_Types].xml and word/_rels. Chapters: Night Watch, Morning.
 */
export function makeLibreOfficeDocx(): Uint8Array {
  const w =
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="w14" xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml"';
  const p = (text: string, style?: string, bookmark?: string): string =>
    `<w:p><w:pPr>${style ? `<w:pStyle w:val="${style}"/>` : '<w:pStyle w:val="BodyText"/>'}<w:rPr></w:rPr></w:pPr>${bookmark ? `<w:bookmarkStart w:id="0" w:name="${bookmark}"/>` : ''}<w:r><w:rPr><w:lang w:val="en-GB"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r>${bookmark ? '<w:bookmarkEnd w:id="0"/>' : ''}</w:p>`;
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document ${w}><w:body>${p('The Keeper', 'Title')}${p('Night Watch', 'Heading1', '__RefHeading___Toc1')}<w:p><w:pPr><w:pStyle w:val="BodyText"/></w:pPr><w:r><w:t xml:space="preserve">The lamp </w:t></w:r><w:r><w:rPr><w:i/><w:iCs/></w:rPr><w:t>turned</w:t></w:r><w:r><w:tab/><w:t>all night.</w:t></w:r></w:p>${p('Morning', 'Heading1', '__RefHeading___Toc2')}${p('A ship came in at dawn.')}<w:sectPr><w:type w:val="nextPage"/><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`;
  return zipSync({
    '[Content_Types].xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
    ),
    '_rels/.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
    ),
    'word/_rels/document.xml.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    ),
    'word/document.xml': strToU8(document),
    'word/styles.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:styles ${w}><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Liberation Serif"/><w:lang w:val="en-GB" w:eastAsia="zh-CN" w:bidi="hi-IN"/></w:rPr></w:rPrDefault></w:docDefaults><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style></w:styles>`,
    ),
    'docProps/core.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"><dc:title>The Keeper</dc:title><dc:creator>Lee Keeper</dc:creator><dc:language>en-GB</dc:language></cp:coreProperties>`,
    ),
  });
}
