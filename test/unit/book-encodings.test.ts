import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { ManuscriptError } from '../../src/audiobook/manuscript-files';
import { readAlongFromEpub } from '../../src/audiobook/read-along/package-plan';
import { readBook } from '../../src/audiobook/read-book';
import { makePlainEpub } from '../helpers/book-files';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
async function bookFile(name: string, bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'book-encodings-'));
  dirs.push(dir);
  await writeFile(path.join(dir, name), bytes);
  return path.join(dir, name);
}

const chapter = (head: string, title: string): string =>
  `<html xmlns="http://www.w3.org/1999/xhtml"><head>${head}<title>${title}</title></head><body><h1>${title}</h1><p>Café naïve, déjà vu.</p></body></html>`;
const latin1 = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'latin1'));
const utf16be = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, 'utf16le').swap16());

/** Chapters in four encodings, each said the way its producers say it. */
const documents = {
  'xml-latin1.xhtml': latin1(`<?xml version="1.0" encoding="ISO-8859-1"?>\n${chapter('', 'Declared by XML')}`),
  'meta-1252.html': latin1(
    chapter('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"/>', 'Declared by meta'),
  ),
  'utf16le.xhtml': Uint8Array.from(
    Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`<?xml version="1.0" encoding="UTF-16"?>\n${chapter('', 'Little end')}`, 'utf16le'),
    ]),
  ),
  'utf16be.xhtml': Uint8Array.from(
    Buffer.concat([
      Buffer.from([0xfe, 0xff]),
      utf16be(`<?xml version="1.0" encoding="UTF-16"?>\n${chapter('', 'Big end')}`),
    ]),
  ),
};

const encryption = (algorithm: string, uri: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?><encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="${algorithm}"/><enc:CipherData><enc:CipherReference URI="${uri}"/></enc:CipherData></enc:EncryptedData></encryption>`;

describe('book encodings and DRM', () => {
  it('reads Latin-1, windows-1252 and UTF-16 (both byte orders) chapters as the text they hold', async () => {
    const book = await readBook(await bookFile('encodings.epub', makePlainEpub({ documents })));
    assert.deepEqual(
      book.chapters.map((item) => item.text),
      ['Declared by XML', 'Declared by meta', 'Little end', 'Big end'].map(
        (title) => `${title}\n\nCafé naïve, déjà vu.`,
      ),
    );
    // The read-along copy writes them as UTF-8, and says so.
    const plan = readAlongFromEpub(book.epub!, 'encodings.epub', book.chapters.slice(0, 1));
    const written = new Map(plan.written.map((file) => [file.path, file.content]));
    assert.match(written.get('OEBPS/xml-latin1.xhtml')!, /^<\?xml version="1.0" encoding="UTF-8"\?>/);
    assert.match(written.get('OEBPS/meta-1252.html')!, /charset=utf-8"/i);
    assert.match(written.get('OEBPS/meta-1252.html')!, /Café naïve/);
  });

  it('refuses a book whose chapters are encrypted (DRM) as encrypted, and reads one whose fonts only are obfuscated', async () => {
    const drm = makePlainEpub({
      documents: { 'c.xhtml': chapter('', 'Locked') },
      extra: {
        'META-INF/encryption.xml': encryption('http://www.w3.org/2001/04/xmlenc#aes128-cbc', 'OEBPS/c.xhtml'),
      },
    });
    await assert.rejects(
      readBook(await bookFile('drm.epub', drm)),
      (error: Error) => error instanceof ManuscriptError && /^drm\.epub is encrypted \(DRM\)/.test(error.message),
    );
    const fonts = makePlainEpub({
      documents: { 'c.xhtml': chapter('', 'Open') },
      extra: {
        'META-INF/encryption.xml': encryption('http://www.idpf.org/2008/embedding', 'OEBPS/fonts/serif.otf'),
        'OEBPS/fonts/serif.otf': Uint8Array.from([1, 2, 3, 4]),
      },
    });
    const book = await readBook(await bookFile('fonts.epub', fonts));
    assert.deepEqual(
      book.chapters.map((item) => item.text),
      ['Open\n\nCafé naïve, déjà vu.'],
    );
  });
});
