/**
 * A Markdown manuscript as an audiobook sees it: title and author from the front matter, and chapters split
 * at headings of the chapter level (the book's top heading level unless told), each with its heading as title.
 */

import type { WordAnchor } from './read-along/word-anchors';

/** A sentence of a book read from XHTML (an EPUB), with the id it carries in its document. */
export interface ChapterSentence {
  id: string;
  text: string;
  /** Its words, with the ids a word-level read-along book gives them (offsets in `text`). */
  words?: WordAnchor[];
}

export interface ChapterParagraph {
  /** The archive path of the EPUB document the paragraph is in. */
  document?: string;
  sentences: ChapterSentence[];
}

export interface Chapter {
  title: string;
  /** The chapter's Markdown, heading included (the text normalizer reads Markdown as prose). */
  text: string;
  /** Front or back matter (cover, contents, copyright, index…) is skipped unless asked for; body when absent. */
  matter?: 'front' | 'body' | 'back';
  /** An EPUB's chapter as its documents hold it: paragraphs of sentences with their ids. */
  paragraphs?: ChapterParagraph[];
}

export interface Manuscript {
  title: string | undefined;
  author: string | undefined;
  /** The front matter's `speakers:` line (`Ann=<voice>, Bob=<voice>`), as written. */
  speakers?: string;
  chapters: Chapter[];
}

const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/;

/** `title:`, `author:` and `speakers:` of a YAML front matter block (simple `key: value` lines; quotes removed). */
function frontMatter(source: string): { fields: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(\r?\n|$)/.exec(source);
  if (!match) return { fields: {}, body: source };
  const fields: Record<string, string> = {};
  for (const line of match[1].split(/\r?\n/)) {
    const field = /^([A-Za-z_][\w-]*):[ \t]*(.*)$/.exec(line);
    if (field) fields[field[1].toLowerCase()] = field[2].trim().replace(/^(["'])(.*)\1$/, '$2');
  }
  return { fields, body: source.slice(match[0].length) };
}

/** Splits one Markdown file into chapters; `fallbackTitle` names a file (or the text before its first heading) without one. */
export function parseManuscript(source: string, fallbackTitle: string, chapterLevel?: number): Manuscript {
  const { fields, body } = frontMatter(source.replace(/^\uFEFF/, ''));
  const lines = body.split(/\r?\n/);
  let inFence = false;
  const headings: { line: number; level: number; title: string }[] = [];
  for (const [index, line] of lines.entries()) {
    if (/^(```|~~~)/.test(line.trim())) inFence = !inFence;
    const heading = inFence ? null : HEADING.exec(line);
    if (heading) headings.push({ line: index, level: heading[1].length, title: heading[2] });
  }
  const level = chapterLevel ?? Math.min(7, ...headings.map((h) => h.level));
  const starts = headings.filter((h) => h.level <= level);
  const chapters: Chapter[] = [];
  const push = (title: string, from: number, to: number): void => {
    const text = lines.slice(from, to).join('\n').trim();
    if (/[\p{L}\p{N}]/u.test(text)) chapters.push({ title, text });
  };
  push(fields.title ?? fallbackTitle, 0, starts[0]?.line ?? lines.length);
  starts.forEach((start, i) => push(start.title, start.line, starts[i + 1]?.line ?? lines.length));
  return {
    title: fields.title,
    author: fields.author,
    ...(fields.speakers ? { speakers: fields.speakers } : {}),
    chapters,
  };
}
