/**
 * What a proof-listen found: each run of written and heard tokens that do not match (within one sentence)
 * becomes one finding on the source — words skipped, words added, or words said differently — with the time in the narration
 * where it happened, so the editor can show it as a Problem and play that spot.
 */
import { alignTokens, type AlignOp, type AlignOptions } from './align';
import { heardWords, sourceWords, type HeardToken, type SourceToken, type TimedWord } from './spoken-words';
import type { ReadingKind } from '../text/reading-sentences';

export type FindingKind = 'skipped' | 'added' | 'said-differently';

export interface Finding {
  kind: FindingKind;
  /** Source offsets: the written words (for `added`, the written word the addition follows, or precedes at the start). */
  start: number;
  end: number;
  /** The written words as they are read (no markup); empty for `added`. */
  written: string;
  /** The recognized words; empty for `skipped`. */
  heard: string;
  /** Seconds in the narration: the heard words, or for `skipped` the gap between the words around them. */
  time: { start: number; end: number };
}

export interface ProofListenReport {
  findings: Finding[];
  /** Written tokens compared, and how many of them were heard as written. */
  sourceTokens: number;
  matched: number;
  heardTokens: number;
}

/**
 * Compares a source with the transcript of its narration.
 * @example proofListen('Hello big world.', 'plain', '', 'en', [{ text: 'Hello', start: 0, end: 0.4 }, { text: 'world', start: 0.5, end: 0.9 }]).findings
 * // [{ kind: 'skipped', start: 6, end: 9, written: 'big', heard: '', time: { start: 0.4, end: 0.5 } }]
 */
export function proofListen(
  source: string,
  kind: ReadingKind,
  languageId: string,
  languageCode: string,
  words: readonly TimedWord[],
  options: AlignOptions & { from?: number; to?: number } = {},
): ProofListenReport {
  const written = sourceWords(source, kind, languageId, languageCode, options.from, options.to).tokens;
  const heard = heardWords(words, languageCode);
  const ops = alignTokens(
    written.map((t) => t.token),
    heard.map((t) => t.token),
    options,
  );
  return {
    findings: findingsOf(written, heard, words, ops),
    sourceTokens: written.length,
    matched: ops.filter((op) => op.type === 'match').length,
    heardTokens: heard.length,
  };
}

/** Groups the alignment's runs of non-matching operations into findings, one per sentence at most. */
export function findingsOf(
  written: readonly SourceToken[],
  heard: readonly HeardToken[],
  words: readonly TimedWord[],
  ops: readonly AlignOp[],
): Finding[] {
  const findings: Finding[] = [];
  let k = 0;
  while (k < ops.length) {
    if (ops[k].type === 'match') {
      k++;
      continue;
    }
    const first = k;
    let sentence: number | undefined;
    for (; k < ops.length; k++) {
      const op = ops[k];
      if (op.type === 'match') break;
      if (op.type === 'insert') continue;
      if (sentence !== undefined && written[op.a].sentence !== sentence) break;
      sentence = written[op.a].sentence;
    }
    findings.push(findingOf(written, heard, words, ops, first, k));
  }
  return findings;
}

function findingOf(
  written: readonly SourceToken[],
  heard: readonly HeardToken[],
  words: readonly TimedWord[],
  ops: readonly AlignOp[],
  first: number,
  end: number,
): Finding {
  const run = ops.slice(first, end);
  const a = run.flatMap((op) => (op.type === 'insert' ? [] : [written[op.a]]));
  const b = run.flatMap((op) => (op.type === 'delete' ? [] : [heard[op.b]]));
  const heardText = [...new Set(b.map((t) => t.word))].map((w) => words[w].text.trim()).join(' ');
  const before = previousHeard(ops, first, heard);
  const after = nextHeard(ops, end, heard);
  const time =
    b.length > 0
      ? { start: b[0].start, end: b[b.length - 1].end }
      : { start: before?.end ?? 0, end: after?.start ?? before?.end ?? 0 };
  if (a.length === 0) {
    const anchor = neighbourWritten(ops, first, end, written);
    return { kind: 'added', start: anchor?.start ?? 0, end: anchor?.end ?? 0, written: '', heard: heardText, time };
  }
  const start = a[0].start;
  const stop = a[a.length - 1].end;
  const writtenText = [...new Map(a.map((t) => [t.word, t.text])).values()].join(' ');
  return {
    kind: b.length > 0 ? 'said-differently' : 'skipped',
    start,
    end: stop,
    written: writtenText,
    heard: heardText,
    time,
  };
}

function previousHeard(ops: readonly AlignOp[], index: number, heard: readonly HeardToken[]): HeardToken | undefined {
  for (let k = index - 1; k >= 0; k--) {
    const op = ops[k];
    if (op.type !== 'delete') return heard[op.b];
  }
  return undefined;
}

function nextHeard(ops: readonly AlignOp[], index: number, heard: readonly HeardToken[]): HeardToken | undefined {
  for (let k = index; k < ops.length; k++) {
    const op = ops[k];
    if (op.type !== 'delete') return heard[op.b];
  }
  return undefined;
}

/** The written token an addition is shown on: the one before it, else the one after it. */
function neighbourWritten(
  ops: readonly AlignOp[],
  first: number,
  end: number,
  written: readonly SourceToken[],
): SourceToken | undefined {
  for (let k = first - 1; k >= 0; k--) {
    const op = ops[k];
    if (op.type !== 'insert') return written[op.a];
  }
  for (let k = end; k < ops.length; k++) {
    const op = ops[k];
    if (op.type !== 'insert') return written[op.a];
  }
  return undefined;
}
