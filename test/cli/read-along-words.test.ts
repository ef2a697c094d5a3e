/**
 * Word-level read-along books through `node dist/cli.js audiobook --format epub3 --overlay word`: with
 * espeak-ng (its word events, taken during the book's own synthesis) and with a voice that reports no word
 * times (the random-weight Piper model: estimated, and said so). EPUBCheck is clean; every word of every
 * sentence is pointed at exactly once; word clips are in order and inside their sentence's clip.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import { wordAnchors, wordRanges } from '../../src/audiobook/read-along/word-anchors';
import { wordClips } from '../../src/audiobook/read-along/word-clips';
import { makeEpub3 } from '../helpers/book-files';
import { runCli } from '../helpers/cli';
import { epubcheck, readOverlays } from '../helpers/epubcheck';
import { useWorkDirs } from '../helpers/temp';
import { testModel } from '../helpers/test-models';

const workDir = useWorkDirs();

interface SentenceWords {
  sentence: string;
  words: Array<{ id: string; audio: string; begin: number; end: number }>;
}

/** The overlays' sentences, each with its word pars in order (a seq per sentence, a par per word). */
function sentenceSeqs(smil: string): SentenceWords[] {
  const clock = (value: string): number => value.split(':').reduce((sum, part) => sum * 60 + Number(part), 0);
  return [...smil.matchAll(/<seq id="[^"]+" epub:textref="[^"#]+#([^"]+)">([\s\S]*?)<\/seq>/g)].map((seq) => ({
    sentence: seq[1],
    words: [
      ...seq[2].matchAll(
        /<text src="[^"#]+#([^"]+)"\/>\s*<audio src="([^"]+)" clipBegin="([^"]+)" clipEnd="([^"]+)"\/>/g,
      ),
    ].map((par) => ({ id: par[1], audio: par[2], begin: clock(par[3]), end: clock(par[4]) })),
  }));
}

const decode = (text: string): string =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&rsquo;/g, '’')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Checks each sentence of the XHTML against its seq: the word spans inside the sentence's span are the
 * seq's pars, once each and in order, and their texts are the sentence's words (a word split by markup in
 * adjacent pieces). Returns each sentence's text, by its id.
 */
function checkWordsCovered(xhtml: string, seqs: SentenceWords[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const seq of seqs) {
    const opening = `<span id="${seq.sentence}">`;
    const at = xhtml.indexOf(opening);
    assert.ok(at >= 0, `no sentence ${seq.sentence}`);
    // The sentence's span ends at the first </span> that closes more than it opened.
    let depth = 0;
    const tags = /<(\/?)span\b[^>]*>/g;
    tags.lastIndex = at;
    let end = -1;
    for (let tag = tags.exec(xhtml); tag; tag = tags.exec(xhtml)) {
      depth += tag[1] ? -1 : 1;
      if (depth === 0) {
        end = tag.index;
        break;
      }
    }
    const inside = xhtml.slice(at + opening.length, end);
    const spans = [...inside.matchAll(/<span id="([^"]+)">([^<]*)<\/span>/g)];
    assert.deepEqual(
      spans.map((span) => span[1]),
      seq.words.map((word) => word.id),
      `${seq.sentence}: the word spans and the pars differ`,
    );
    assert.equal(new Set(spans.map((span) => span[1])).size, spans.length);
    const sentence = decode(inside.replace(/<[^>]+>/g, ''));
    const expected = wordRanges(sentence).map((range) => sentence.slice(range.start, range.end));
    // Pieces of one word touch each other: join them where the sentence has no space between them.
    const pieces = spans.map((span) => decode(span[2]));
    const joined: string[] = [];
    let cursor = 0;
    for (const piece of pieces) {
      const found = sentence.indexOf(piece, cursor);
      assert.ok(found >= 0, `${seq.sentence}: "${piece}" is not in "${sentence}"`);
      if (joined.length > 0 && found === cursor) joined[joined.length - 1] += piece;
      else joined.push(piece);
      cursor = found + piece.length;
    }
    assert.deepEqual(joined, expected, `${seq.sentence}: not every word is pointed at once`);
    texts.set(seq.sentence, sentence);
  }
  return texts;
}

/** Word clips strictly in order, not empty, inside the sentence's clip of the sentence-level book. */
function checkWordTimes(seqs: SentenceWords[], sentences: Map<string, { begin: number; end: number }>): void {
  let previous: { audio: string; end: number } | undefined;
  for (const seq of seqs) {
    const sentence = sentences.get(seq.sentence);
    assert.ok(sentence, `${seq.sentence} has no sentence clip`);
    for (const word of seq.words) {
      assert.ok(word.end > word.begin, `${word.id} is empty`);
      assert.ok(
        word.begin >= sentence.begin - 0.0005 && word.end <= sentence.end + 0.0005,
        `${word.id} (${word.begin}–${word.end}) is outside its sentence (${sentence.begin}–${sentence.end})`,
      );
      if (previous?.audio === word.audio)
        assert.ok(word.begin >= previous.end - 0.0005, `${word.id} begins before the word before it ends`);
      previous = word;
    }
  }
}

describe('node dist/cli.js audiobook --format epub3 --overlay word (word-level read-along books)', () => {
  it('espeak-ng: word times from its word events, every word pointed at once, inside its sentence, EPUBCheck clean', async () => {
    const dir = await workDir();
    const input = path.join(dir, 'book.epub');
    await writeFile(input, makeEpub3());
    const dataDir = path.join(dir, 'data');
    // The Storm: a sentence that ends inside <em> and is merged with the next.
    const common = [
      'audiobook',
      input,
      '--format',
      'epub3',
      '--chapters',
      '4',
      '--voice',
      'English (America)',
      '--data-dir',
      dataDir,
    ];
    // The sentence-level book of the same audio gives each sentence's clip.
    const bySentence = await runCli([...common, '--out', path.join(dir, 'sentences.epub')]);
    assert.equal(bySentence.code, 0, bySentence.stderr);
    const sentences = new Map(
      readOverlays(new Uint8Array(await readFile(path.join(dir, 'sentences.epub')))).clips.map((clip) => [
        clip.id,
        clip,
      ]),
    );

    const out = path.join(dir, 'words.epub');
    const result = await runCli([...common, '--out', out, '--overlay', 'word']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Word overlays: word times from espeak-ng's word events during the synthesis\.$/m);
    const check = await epubcheck(out);
    assert.deepEqual(check.errors, [], check.output);
    assert.equal(check.code, 0, check.output);

    const book = readOverlays(new Uint8Array(await readFile(out)));
    const smil = Object.keys(book.files).filter((name) => name.endsWith('.smil'));
    assert.equal(smil.length, 1);
    const seqs = sentenceSeqs(book.text(smil[0]));
    assert.deepEqual(
      seqs.map((seq) => seq.sentence),
      [...sentences.keys()],
    );
    const xhtml = book.text('OEBPS/text/chapters.xhtml');
    const texts = checkWordsCovered(xhtml, seqs);
    assert.equal(texts.size, sentences.size);
    // Only spans (and the style's link) were added to the book's own markup: its inline elements all stay.
    const original = Buffer.from(unzipSync(makeEpub3())['OEBPS/text/chapters.xhtml']).toString('utf8');
    assert.equal(
      xhtml.replace(/<\/?span[^>]*>/g, '').replace(/<link rel="stylesheet"[^>]*read-along\.css"\/>/, ''),
      original,
    );
    assert.match(
      xhtml,
      /<span id="ss3-\d+"><span id="ss3-\d+w1">The<\/span> <span id="ss3-\d+w2">wind<\/span>[\s\S]*?<em><span id="ss3-\d+w\d+">night<\/span>\. <span id="ss3-\d+w\d+">The<\/span> <span id="ss3-\d+w\d+">sea<\/span><\/em> <span id="ss3-\d+w\d+">grew<\/span>/,
    );
    checkWordTimes(seqs, sentences);
    // The voice's own times, not the estimate by characters: some word starts well away from where it would put it.
    const farFromEstimate = seqs.filter((seq) => {
      const sentence = sentences.get(seq.sentence)!;
      const text = texts.get(seq.sentence)!;
      const estimate = wordClips(text, wordAnchors(text, 'w'), null, sentence.end - sentence.begin);
      return seq.words.some((word, index) => Math.abs(word.begin - sentence.begin - estimate[index].begin) > 0.1);
    });
    assert.ok(farFromEstimate.length > 0, 'every word sits where the estimate by characters would put it');
    assert.match(
      book.text('OEBPS/content.opf'),
      /<meta property="schema:accessibilitySummary">Read-along narration synchronized with the text word by word; word times: from espeak-ng's word events during the synthesis\.<\/meta>/,
    );
  });

  it('a voice without word times (random-weight Piper): times estimated by characters, said in the output and the package', async () => {
    const dir = await workDir();
    const dataDir = path.join(dir, 'data');
    const voiceDir = path.join(dataDir, 'models', 'tts', 'book-piper');
    await mkdir(voiceDir, { recursive: true });
    for (const name of ['model.onnx', 'tokens.txt'])
      await copyFile(testModel(path.join('sherpa-synthetic', 'vits-piper', name)), path.join(voiceDir, name));
    await writeFile(
      path.join(voiceDir, 'voice.json'),
      JSON.stringify({
        name: 'Book Piper',
        engine: 'vits',
        languageCode: 'en-US',
        files: { model: 'model.onnx', tokens: 'tokens.txt' },
      }),
    );
    const input = path.join(dir, 'short.md');
    await writeFile(input, '# Dawn\n\nKoa arrived at dawn. The boats slept.\n');
    const out = path.join(dir, 'short.epub');
    const result = await runCli([
      'audiobook',
      input,
      '--out',
      out,
      '--overlay',
      'word',
      '--voice',
      'Book Piper',
      '--data-dir',
      dataDir,
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^Word overlays: word times estimated in proportion to characters within each sentence \(the voice reports no word times\)\.$/m,
    );
    const check = await epubcheck(out);
    assert.deepEqual(check.errors, [], check.output);
    const book = readOverlays(new Uint8Array(await readFile(out)));
    assert.match(
      book.text('EPUB/package.opf'),
      /word times: estimated in proportion to characters within each sentence/,
    );
    const seqs = sentenceSeqs(book.text(Object.keys(book.files).find((name) => name.endsWith('.smil'))!));
    assert.deepEqual(
      seqs.map((seq) => seq.sentence),
      ['c1-s1', 'c1-s2', 'c1-s3'],
    );
    assert.equal(checkWordsCovered(book.text('EPUB/chapter-001.xhtml'), seqs).size, 3);
    // The estimate: within "Koa arrived at dawn." each word's share follows its characters (+1): 4, 8, 3, 5 of 20.
    const [koa, arrived, at] = seqs[1].words;
    const span = seqs[1].words[3].end - koa.begin;
    assert.ok(
      Math.abs((arrived.begin - koa.begin) / span - 4 / 20) < 0.01 &&
        Math.abs((at.begin - koa.begin) / span - 12 / 20) < 0.01,
      JSON.stringify(seqs[1].words),
    );
  });

  it('without --voice, word overlays are read by an espeak-ng voice of the book, whose word times are its own', async () => {
    const dir = await workDir();
    const input = path.join(dir, 'unnamed.md');
    await writeFile(input, '# Dawn\n\nKoa arrived at dawn. The boats slept.\n');
    const out = path.join(dir, 'unnamed.epub');
    const result = await runCli([
      'audiobook',
      input,
      '--out',
      out,
      '--overlay',
      'word',
      '--data-dir',
      path.join(dir, 'data'),
    ]);
    assert.equal(result.code, 0, result.stderr);
    // Flite, the best ready English voice for sentence-level books, reports no word times.
    assert.match(result.stdout, /Word overlays: word times from espeak-ng's word events during the synthesis\./);
  });

  it('refuses word overlays for a book that is not a read-along EPUB 3, before any synthesis', async () => {
    const dir = await workDir();
    const input = path.join(dir, 'short.md');
    await writeFile(input, '# Dawn\n\nKoa arrived.\n');
    const refused = await runCli([
      'audiobook',
      input,
      '--out',
      path.join(dir, 'short.m4b'),
      '--overlay',
      'word',
      '--data-dir',
      path.join(dir, 'data'),
    ]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /--overlay word makes a read-along book: use it with --format epub3/);
    const bad = await runCli([
      'audiobook',
      input,
      '--out',
      path.join(dir, 'short.epub'),
      '--overlay',
      'letter',
      '--data-dir',
      path.join(dir, 'data'),
    ]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--overlay takes sentence or word, not "letter"/);
  });
});
