import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { chapterPassages } from '../../src/audiobook/passages';
import { attributionPrompt, attributionSchema, NARRATOR, parseAttribution } from '../../src/cast/attribution-prompt';
import {
  CastFileError,
  correctLine,
  readCastFile,
  voiceOfQuote,
  writeCastFile,
  type CastFile,
} from '../../src/cast/cast-file';
import { quoteKey, splitQuotes } from '../../src/cast/quotes';
import { quotesOf } from '../../src/jobs/cast-book';
import { MalformedAnswerError } from '../../src/translate/translate-prompt';

describe('cast: quotes in a paragraph', () => {
  it('splits narration and quotes in the usual quotation styles', () => {
    assert.deepEqual(splitQuotes('Ann opened the door. “Hello, Bob,” she said.'), [
      { kind: 'narration', text: 'Ann opened the door.', start: 0, end: 21 },
      { kind: 'quote', text: 'Hello, Bob,', start: 21, end: 34 },
      { kind: 'narration', text: 'she said.', start: 34, end: 44 },
    ]);
    assert.deepEqual(
      splitQuotes('„Guten Tag“, sagte sie. «Bonjour» et "hi"')
        .filter((p) => p.kind === 'quote')
        .map((p) => p.text),
      ['Guten Tag', 'Bonjour', 'hi'],
    );
  });

  it('leaves apostrophes and unclosed quotation marks as narration', () => {
    assert.deepEqual(splitQuotes('It’s Ann’s book. “Unclosed'), [
      { kind: 'narration', text: 'It’s Ann’s book. “Unclosed', start: 0, end: 26 },
    ]);
  });

  it('finds each distinct quote of a manuscript once, with its paragraph and the one before as context', () => {
    const quotes = quotesOf(['Ann came in.\n\n“Hello,” she said.\n\n“Hello,” said Bob.']);
    assert.deepEqual(quotes, [{ quote: 'Hello,', context: 'Ann came in.\n\n“Hello,” she said.' }]);
    assert.equal(quoteKey(' a \n b '), 'a b');
  });
});

describe('cast: asking the model and reading its answer', () => {
  it('asks about one quote with its context and the names so far, under a closed schema', () => {
    const prompt = attributionPrompt({ quote: 'Tea?', context: '“Tea?” asked Ann.' }, ['Ann', 'Bob']);
    assert.match(prompt.user, /Who says "Tea\?"\?/);
    assert.match(prompt.user, /Characters named so far: "Ann", "Bob"/);
    assert.match(prompt.system, new RegExp(`answer "${NARRATOR}"`));
    const schema = attributionSchema();
    assert.deepEqual(schema.required, ['speaker', 'gender', 'age']);
    assert.equal(schema.additionalProperties, false);
  });

  it('reads a well-formed answer, tidying the name; refuses a malformed one', () => {
    assert.deepEqual(parseAttribution('{"speaker":" Ann\\n\\u0007 “Smith” ","gender":"female","age":"adult"}'), {
      speaker: 'Ann Smith',
      gender: 'female',
      age: 'adult',
    });
    assert.equal(parseAttribution('{"speaker":"\\u0001","gender":"unknown","age":"unknown"}').speaker, NARRATOR);
    assert.throws(() => parseAttribution('not json'), MalformedAnswerError);
    assert.throws(() => parseAttribution('{"speaker":"Ann","gender":"robot","age":"adult"}'), MalformedAnswerError);
  });
});

describe('cast: the cast file and the book', () => {
  const cast: CastFile = {
    characters: {
      Ann: { voice: 'ann-voice', gender: 'female', age: 'adult' },
      Bob: { voice: null, gender: 'male', age: 'adult' },
    },
    lines: { 'Hello, Bob,': { speaker: 'Ann' }, 'Late again.': { speaker: 'Bob' }, 'Who?': { speaker: NARRATOR } },
  };

  it("reads a quote by its speaker's voice only when the cast gives one", () => {
    assert.equal(voiceOfQuote(cast, 'Hello, Bob,'), 'ann-voice');
    assert.equal(voiceOfQuote(cast, 'Late again.'), undefined);
    assert.equal(voiceOfQuote(cast, 'Who?'), undefined);
  });

  it('keeps a correction, adding the character it names', () => {
    const corrected = correctLine(cast, 'Late again.', 'Carol');
    assert.deepEqual(corrected.lines['Late again.'], { speaker: 'Carol', corrected: true });
    assert.deepEqual(corrected.characters.Carol, { voice: null, gender: 'unknown', age: 'unknown' });
  });

  it('splits a paragraph into narration and voiced quotes for the audiobook; without a cast it stays one passage', () => {
    const text = 'Ann opened the door. “Hello, Bob,” she said.\n\nNo dialogue here.';
    assert.deepEqual(chapterPassages(text, {}, undefined, cast).passages, [
      { text: 'Ann opened the door.', voice: undefined },
      { text: 'Hello, Bob,', voice: 'ann-voice' },
      { text: 'she said.', voice: undefined },
      { text: 'No dialogue here.', voice: undefined },
    ]);
    assert.equal(chapterPassages(text, {}).passages.length, 2);
  });

  it('round-trips through .speech/cast.json and names what is wrong in a broken one', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cast-file-'));
    try {
      const file = path.join(dir, '.speech', 'cast.json');
      assert.deepEqual(await readCastFile(file), { characters: {}, lines: {} }, 'no file: an empty cast');
      await writeCastFile(file, cast);
      assert.deepEqual(await readCastFile(file), cast);
      assert.match(await readFile(file, 'utf8'), /\n {2}"characters"/);
      await writeFile(file, '{"characters":{},"lines":{"Hi":{}}}');
      await assert.rejects(
        readCastFile(file),
        (error: Error) => error instanceof CastFileError && /the line "Hi" has no speaker/.test(error.message),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
