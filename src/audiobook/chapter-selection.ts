/**
 * Which chapters an export reads: `3-7,9` (1-based numbers of the book's chapter list, as the CLI takes them
 * and the editor's pick gives them), or by default every chapter that is not front or back matter (all of
 * them when the book marks nothing but matter).
 */
import type { Chapter } from './manuscript';
import { ManuscriptError } from './manuscript-files';

/** The 0-based indexes `spec` names, in book order, each once; throws one sentence when it is malformed or out of range. */
export function parseChapterSelection(spec: string, count: number): number[] {
  const chosen = new Set<number>();
  for (const part of spec.split(',').map((piece) => piece.trim())) {
    const range = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!range)
      throw new ManuscriptError(
        `The chapter list "${spec}" is not like 3-7,9 (chapter numbers and ranges, separated by commas).`,
      );
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (from < 1 || to > count || from > to) {
      throw new ManuscriptError(
        `The chapter list "${spec}" names chapter${from === to ? ` ${from}` : `s ${from}-${to}`}, but the book has chapters 1-${count}.`,
      );
    }
    for (let n = from; n <= to; n++) chosen.add(n - 1);
  }
  return [...chosen].sort((a, b) => a - b);
}

/** The chapters to read: those `spec` names, or the body chapters. */
export function selectChapters<T extends Pick<Chapter, 'matter'>>(
  chapters: readonly T[],
  spec: string | undefined,
): T[] {
  if (spec !== undefined && spec.trim() !== '' && spec.trim().toLowerCase() !== 'all') {
    return parseChapterSelection(spec, chapters.length).map((index) => chapters[index]);
  }
  if (spec?.trim().toLowerCase() === 'all') return [...chapters];
  const body = chapters.filter((chapter) => (chapter.matter ?? 'body') === 'body');
  return body.length > 0 ? body : [...chapters];
}
