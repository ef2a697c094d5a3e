import assert from 'node:assert/strict';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { makePlainEpub, plainXhtml } from '../helpers/book-files';
import { runCli } from '../helpers/cli';
import { useWorkDirs } from '../helpers/temp';

const workDir = useWorkDirs();

const ARABIC = plainXhtml('<h1>الفصل الأول</h1><p>ذهب الولد إلى المدرسة في الصباح.</p>');

/** A DOCX whose default text language (word/styles.xml, as Word and LibreOffice write it) is Arabic. */
function arabicDocx(): Uint8Array {
  const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  return zipSync({
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:document ${w}><w:body><w:p><w:r><w:t>ذهب الولد إلى المدرسة في الصباح.</w:t></w:r></w:p></w:body></w:document>`,
    ),
    'word/styles.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:styles ${w}><w:docDefaults><w:rPrDefault><w:rPr><w:lang w:val="ar-SA" w:eastAsia="zh-CN" w:bidi="ar-SA"/></w:rPr></w:rPrDefault></w:docDefaults></w:styles>`,
    ),
  });
}

async function exportBook(name: string, bytes: Uint8Array, extra: string[] = []) {
  const dir = await workDir();
  const input = path.join(dir, name);
  await writeFile(input, bytes);
  const data = path.join(dir, 'data');
  const result = await runCli(['audiobook', input, '--out', path.join(dir, 'book.m4b'), '--data-dir', data, ...extra]);
  return { ...result, dir, data };
}

describe("node dist/cli.js audiobook reads a book with a voice of the book's language", () => {
  it('reads an Arabic EPUB, a Chinese (zh-CN) EPUB and an Arabic DOCX with a voice of their language when none is named', async () => {
    for (const [name, bytes] of [
      ['arabic.epub', makePlainEpub({ language: 'ar', documents: { 'c.xhtml': ARABIC } })],
      [
        'chinese.epub',
        makePlainEpub({
          language: 'zh-CN',
          documents: { 'c.xhtml': plainXhtml('<h1>第一章</h1><p>今天天气很好。我们去公园吧。</p>') },
        }),
      ],
      ['arabic.docx', arabicDocx()],
    ] as const) {
      const result = await exportBook(name, bytes);
      assert.equal(result.code, 0, `${name}: ${result.stderr}`);
      assert.match(result.stdout, /^Wrote .*book\.m4b: 1 chapters\.$/m, name);
    }
  });

  it('refuses a book in a language no installed voice speaks before any synthesis, naming the language', async () => {
    const khmer = makePlainEpub({
      language: 'km',
      documents: { 'c.xhtml': plainXhtml('<h1>ជំពូកទីមួយ</h1><p>ថ្ងៃនេះអាកាសធាតុល្អណាស់។</p>') },
    });
    const result = await exportBook('khmer.epub', khmer);
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stderr, /No installed voice speaks Khmer \(km\), the language of the text: install a voice/);
    assert.deepEqual(await readdir(result.data).catch(() => []), [], 'nothing was synthesized');
  });

  it('names the chapter and paragraph when the voice asked for cannot read them', async () => {
    const arabic = makePlainEpub({ language: 'ar', documents: { 'c.xhtml': ARABIC } });
    const result = await exportBook('arabic.epub', arabic, ['--voice', 'English (America) – Flite SLT']);
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stderr, /Chapter 1 "الفصل الأول", paragraph 1: The text produced no speech/);
  });
});
