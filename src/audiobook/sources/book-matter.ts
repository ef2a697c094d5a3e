/**
 * Which chapters of a book are front or back matter (cover, title page, contents, copyright, index…), told
 * by the book's own semantics (EPUB 3 `epub:type`, the nav's landmarks, the EPUB 2 guide) or, failing
 * those, by the chapter's title; an audiobook skips them unless asked for.
 */
export type Matter = 'front' | 'body' | 'back';

const FRONT_TYPES = new Set([
  'cover',
  'titlepage',
  'halftitlepage',
  'title-page',
  'frontmatter',
  'toc',
  'copyright-page',
  'dedication',
  'imprint',
  'loi',
  'lot',
  'seriespage',
  'other-credits',
  'contributors',
]);
const BACK_TYPES = new Set([
  'backmatter',
  'index',
  'colophon',
  'acknowledgments',
  'acknowledgements',
  'glossary',
  'bibliography',
  'endnotes',
  'rearnotes',
  'footnotes',
  'appendix',
]);
const MATTER_TITLE =
  /^(cover|title( page)?|half title|(table of )?contents|copyright( page)?|dedication|also by .*|other books by .*|about the authors?|about the publisher|acknowledge?ments?|index|colophon|bibliography|glossary|notes|endnotes|imprint)$/i;

/** Whether the hints (epub:type values, landmark or guide types) or the title make a chapter matter, not body. */
export function isMatter(types: readonly string[], title: string): boolean {
  if (types.some((type) => type === 'bodymatter' || type === 'chapter')) return false;
  if (types.some((type) => FRONT_TYPES.has(type.toLowerCase()) || BACK_TYPES.has(type.toLowerCase()))) return true;
  return MATTER_TITLE.test(title.trim());
}

/** Matter before the first body chapter is front matter, after the last one back matter. */
export function placeMatter(flags: readonly boolean[]): Matter[] {
  const firstBody = flags.indexOf(false);
  return flags.map((matter, index) => (!matter ? 'body' : firstBody < 0 || index < firstBody ? 'front' : 'back'));
}
