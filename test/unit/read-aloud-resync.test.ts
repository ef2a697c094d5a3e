import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mapOffset, resync, type TextChange } from '../../src/read-aloud/resync';
import { readingSentences, type ReadingSentence } from '../../src/text/reading-sentences';

const TEXT = 'One is first. Two is second. Three is third. Four is last.';

/** Applies changes that all refer to the text before them, as VS Code reports one edit. */
function apply(text: string, changes: readonly TextChange[]): string {
  let out = text;
  for (const change of [...changes].sort((a, b) => b.rangeOffset - a.rangeOffset)) {
    out = out.slice(0, change.rangeOffset) + change.text + out.slice(change.rangeOffset + change.rangeLength);
  }
  return out;
}

/** A change that replaces the first `find` after `from` in `text` with `text`. */
function replace(text: string, find: string, by: string, from = 0): TextChange {
  const at = text.indexOf(find, from);
  assert.ok(at >= 0, `"${find}" is in the text`);
  return { rangeOffset: at, rangeLength: find.length, text: by };
}

function insert(text: string, before: string, what: string): TextChange {
  const at = text.indexOf(before);
  assert.ok(at >= 0, `"${before}" is in the text`);
  return { rangeOffset: at, rangeLength: 0, text: what };
}

/** Reads `text` as plain text, edits it while sentence `current` plays, and checks the ranges against the new text. */
function edit(
  text: string,
  current: number,
  changes: TextChange[],
  sentences: ReadingSentence[] = readingSentences(text, 'plain'),
) {
  const edited = apply(text, changes);
  const result = resync({
    sentences,
    current,
    end: text.length,
    changes,
    split: (from, to) => readingSentences(edited, 'plain', '', from, to),
  });
  const shown = result.sentences.map((sentence) => edited.slice(sentence.start, sentence.end));
  return { ...result, edited, texts: result.sentences.map((sentence) => sentence.text), shown };
}

describe('Read Aloud re-sync: mapping the reading across an edit', () => {
  it('an edit after the sentence being spoken splits the rest again and re-makes from the first changed sentence', () => {
    const { texts, shown, remakeFrom, currentEdited, end, edited } = edit(TEXT, 1, [
      insert(TEXT, 'Four is last.', 'An inserted one. '),
    ]);
    assert.deepEqual(texts, [
      'One is first.',
      'Two is second.',
      'Three is third.',
      'An inserted one.',
      'Four is last.',
    ]);
    assert.deepEqual(shown, texts, 'every range covers its text in the edited document');
    assert.equal(remakeFrom, 3, 'the third sentence was made ahead and did not change: it is kept');
    assert.equal(currentEdited, false);
    assert.equal(end, edited.length);
  });

  it('a changed sentence after the current one is re-made, and so is everything after it', () => {
    const { texts, remakeFrom } = edit(TEXT, 0, [replace(TEXT, 'second', '2nd')]);
    assert.deepEqual(texts, ['One is first.', 'Two is 2nd.', 'Three is third.', 'Four is last.']);
    assert.equal(remakeFrom, 1);
  });

  it('deleting sentences after the current one shortens the reading', () => {
    const { texts, remakeFrom } = edit(TEXT, 1, [replace(TEXT, ' Three is third. Four is last.', '')]);
    assert.deepEqual(texts, ['One is first.', 'Two is second.']);
    assert.equal(remakeFrom, 2);
  });

  it('an edit inside the sentence being spoken lets it finish and goes on with the next sentence of the new text', () => {
    // The period the writer adds splits the spoken sentence in two: its second half is not read again.
    const { texts, shown, remakeFrom, currentEdited } = edit(TEXT, 1, [replace(TEXT, ' is second', '. Is second')]);
    assert.equal(currentEdited, true);
    assert.equal(texts[1], 'Two is second.', 'the spoken sentence keeps the words it is being spoken with');
    assert.equal(shown[1], 'Two. Is second.', 'its highlight covers the edited sentence');
    assert.deepEqual(texts.slice(2), ['Three is third.', 'Four is last.']);
    assert.equal(remakeFrom, 4, 'the sentences after it did not change');
  });

  it('an edit that joins the spoken sentence with the next reads on from the new text after it', () => {
    const { texts, shown, currentEdited } = edit(TEXT, 1, [replace(TEXT, 'second. Three', 'second and three')]);
    assert.equal(currentEdited, true);
    assert.equal(shown[1], 'Two is second and three', 'the spoken range ends where its old end moved to');
    assert.deepEqual(texts.slice(2), ['is third.', 'Four is last.']);
  });

  it('an edit before the sentence being spoken only moves the ranges', () => {
    const { texts, shown, remakeFrom, currentEdited } = edit(TEXT, 2, [
      replace(TEXT, 'One is first.', 'The very first one is here.'),
    ]);
    assert.deepEqual(texts, ['The very first one is here.', 'Two is second.', 'Three is third.', 'Four is last.']);
    assert.deepEqual(shown, texts);
    assert.equal(remakeFrom, 4, 'nothing is made again');
    assert.equal(currentEdited, false);
  });

  it('an insertion just before the spoken sentence moves it, and does not count as an edit of it', () => {
    const { shown, currentEdited, remakeFrom } = edit(TEXT, 1, [insert(TEXT, 'Two is', 'New words. ')]);
    assert.equal(shown[1], 'Two is second.');
    assert.equal(currentEdited, false);
    assert.equal(remakeFrom, 4);
  });

  it('a word of the spoken sentence keeps its place: word offsets move with the text', () => {
    const sentences = readingSentences(TEXT, 'plain');
    const { edited, sentences: moved } = edit(TEXT, 2, [insert(TEXT, 'One', 'Zero is before. ')], sentences);
    assert.deepEqual(
      moved[2].wordStarts.map((start) => edited.slice(start).split(' ')[0]),
      ['Three', 'is', 'third.'],
    );
  });

  it('several changes of one edit, before and after, apply together', () => {
    const changes = [replace(TEXT, 'first', '1st'), insert(TEXT, 'Four', 'Also this. ')];
    const { texts, shown, remakeFrom } = edit(TEXT, 1, changes);
    assert.deepEqual(texts, ['One is 1st.', 'Two is second.', 'Three is third.', 'Also this.', 'Four is last.']);
    assert.deepEqual(shown, texts);
    assert.equal(remakeFrom, 3);
  });

  it("a selection reading ends where the selection's end moved to", () => {
    const sentences = readingSentences(TEXT, 'plain', '', 0, TEXT.indexOf('Three'));
    const changes = [insert(TEXT, 'One', 'Zero. ')];
    const edited = apply(TEXT, changes);
    const result = resync({
      sentences,
      current: 0,
      end: TEXT.indexOf('Three'),
      changes,
      split: (from, to) => readingSentences(edited, 'plain', '', from, to),
    });
    assert.deepEqual(
      result.sentences.map((s) => s.text),
      ['One is first.', 'Two is second.'],
      'the sentence after the selection is not read',
    );
    assert.equal(result.end, edited.indexOf('Three'));
  });

  it('Markdown: what an edit turns into code is no longer read', () => {
    const source = 'Intro here.\n\nFirst para.\n\nSecond para.\n';
    const sentences = readingSentences(source, 'markdown');
    const changes = [
      insert(source, 'Second', '```\n'),
      { rangeOffset: source.length, rangeLength: 0, text: '```\n\nAfter code.\n' },
    ];
    const edited = apply(source, changes);
    const result = resync({
      sentences,
      current: 0,
      end: source.length,
      changes,
      split: (from, to) => readingSentences(edited, 'markdown', '', from, to),
    });
    assert.deepEqual(
      result.sentences.map((s) => s.text),
      ['Intro here.', 'First para.', 'After code.'],
    );
    assert.equal(result.remakeFrom, 2);
  });

  it('maps offsets: before a change, after it, and inside a replaced range', () => {
    const changes: TextChange[] = [{ rangeOffset: 10, rangeLength: 5, text: 'ab' }];
    assert.equal(mapOffset(5, changes, 'after'), 5);
    assert.equal(mapOffset(10, changes, 'after'), 10, 'a replacement starting at the offset does not move it');
    assert.equal(mapOffset(15, changes, 'before'), 12);
    assert.equal(mapOffset(20, changes, 'before'), 17);
    assert.equal(mapOffset(12, changes, 'before'), 12, "inside a replaced range: to the replacement's end");
    assert.equal(mapOffset(12, changes, 'after'), 12);
    const insertion: TextChange[] = [{ rangeOffset: 10, rangeLength: 0, text: 'xyz' }];
    assert.equal(mapOffset(10, insertion, 'after'), 13, 'a start moves with text inserted at it');
    assert.equal(mapOffset(10, insertion, 'before'), 10, 'an end stays before it');
  });
});
