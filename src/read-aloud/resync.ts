/**
 * Keeps a Read Aloud in step with edits to the text it reads: maps its sentences across one edit of the
 * document. Sentences up to the one being spoken keep their index (the player knows them by it) and move
 * with the text; the rest of the reading is split again from the edited text, and the first of those whose
 * text changed marks where audio made ahead must be dropped and made again.
 */
import type { ReadingSentence } from '../text/reading-sentences';

/** One change of an edit, in offsets of the text before the edit (as VS Code's contentChanges give them). */
export interface TextChange {
  rangeOffset: number;
  rangeLength: number;
  text: string;
}

export interface ResyncInput {
  /** The reading's sentences, in offsets of the text before the edit. */
  sentences: readonly ReadingSentence[];
  /** The sentence being spoken. */
  current: number;
  /** Where the reading ends in the text before the edit (the selection's end, or the text's length). */
  end: number;
  /** The changes of one edit; they do not overlap and all refer to the text before it. */
  changes: readonly TextChange[];
  /** The reading's sentences of the edited text that overlap `[from, to)` (its own splitter). */
  split: (from: number, to: number) => ReadingSentence[];
}

export interface Resync {
  /** The reading's sentences in the edited text: the same count up to `current`, then the rest split again. */
  sentences: ReadingSentence[];
  /** Where the reading ends in the edited text. */
  end: number;
  /** The first sentence whose audio made before the edit no longer fits: it and every later one are made again. */
  remakeFrom: number;
  /** The edit touched the sentence being spoken (it finishes as it was made). */
  currentEdited: boolean;
}

/** Whether a position just at an insertion moves with it (a start of text) or stays before it (an end). */
type Bias = 'before' | 'after';

/**
 * `offset` of the text before the edit in the text after it. A position inside a replaced range goes to the
 * replacement's end, so a range that ended inside it covers what replaced it.
 */
export function mapOffset(offset: number, changes: readonly TextChange[], bias: Bias): number {
  let shift = 0;
  for (const change of changes) {
    const start = change.rangeOffset;
    const end = start + change.rangeLength;
    const delta = change.text.length - change.rangeLength;
    if (end < offset || (end === offset && (change.rangeLength > 0 || bias === 'after'))) shift += delta;
    else if (start < offset && offset < end)
      return (
        mapOffset(
          start,
          changes.filter((other) => other !== change),
          'before',
        ) + change.text.length
      );
  }
  return offset + shift;
}

/** Whether a change replaces or inserts within `[start, end)` (an insertion at either edge does not). */
function touches(change: TextChange, start: number, end: number): boolean {
  const changeEnd = change.rangeOffset + change.rangeLength;
  if (change.rangeLength === 0) return change.rangeOffset > start && change.rangeOffset < end;
  return change.rangeOffset < end && changeEnd > start;
}

function mapSentence(sentence: ReadingSentence, changes: readonly TextChange[]): ReadingSentence {
  const start = mapOffset(sentence.start, changes, 'after');
  const end = Math.max(start, mapOffset(sentence.end, changes, 'before'));
  const wordStarts = sentence.wordStarts.map((offset) =>
    Math.min(end, Math.max(start, mapOffset(offset, changes, 'after'))),
  );
  return { ...sentence, start, end, wordStarts };
}

/** Sentences split from one edited range, read back as the one sentence they replace. */
function joined(parts: readonly ReadingSentence[]): ReadingSentence | undefined {
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return parts[0];
  return {
    start: parts[0].start,
    end: parts[parts.length - 1].end,
    text: parts.map((part) => part.text).join(' '),
    wordStarts: parts.flatMap((part) => part.wordStarts),
  };
}

/** Whether audio made for `before` still says `after`: the same text, and for SSML the same markup and steps. */
function sameSpeech(after: ReadingSentence, before: ReadingSentence): boolean {
  if (after.text !== before.text) return false;
  const [a, b] = [after.ssml, before.ssml];
  return a === b || (a !== undefined && b !== undefined && a.source === b.source && a.from === b.from && a.to === b.to);
}

/**
 * The reading after an edit. Sentences already read move with the text (one the edit touched takes its
 * new words, so Previous reads what is there now); the one being spoken moves too and keeps its words,
 * because it finishes as it was made; the rest is split again from the end of the one being spoken.
 */
export function resync({ sentences, current, end, changes, split }: ResyncInput): Resync {
  const before = sentences.slice(0, current).map((sentence) => {
    const moved = mapSentence(sentence, changes);
    if (!changes.some((change) => touches(change, sentence.start, sentence.end))) return moved;
    return joined(split(moved.start, moved.end)) ?? moved;
  });
  const spoken = sentences[current];
  const currentEdited = spoken !== undefined && changes.some((change) => touches(change, spoken.start, spoken.end));
  const newEnd = mapOffset(end, changes, 'after');
  if (!spoken) return { sentences: before, end: newEnd, remakeFrom: current, currentEdited: false };
  const moved = mapSentence(spoken, changes);
  // Markdown widens a sentence's range over markup before it: never back into the one being spoken.
  const rest = split(moved.end, newEnd).map((sentence) =>
    sentence.start < moved.end ? { ...sentence, start: moved.end } : sentence,
  );
  const updated = [...before, moved, ...rest];
  let remakeFrom = current + 1;
  while (
    remakeFrom < updated.length &&
    remakeFrom < sentences.length &&
    sameSpeech(updated[remakeFrom], sentences[remakeFrom])
  )
    remakeFrom++;
  return { sentences: updated, end: newEnd, remakeFrom, currentEdited };
}
