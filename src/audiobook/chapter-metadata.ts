/** FFMETADATA1 text for ffmpeg: the book's title and author, and one chapter marker per chapter (milliseconds). */
import type { TimedChapter } from './book-plan';

/** ffmetadata escapes `=`, `;`, `#`, `\` and line ends with a backslash. */
const escape = (value: string): string => value.replace(/[=;#\\\n]/g, (c) => `\\${c}`);

export function chapterMetadata(book: { title?: string; author?: string }, chapters: readonly TimedChapter[]): string {
  const lines = [';FFMETADATA1'];
  if (book.title) lines.push(`title=${escape(book.title)}`, `album=${escape(book.title)}`);
  if (book.author) lines.push(`artist=${escape(book.author)}`, `album_artist=${escape(book.author)}`);
  let start = 0;
  for (const chapter of chapters) {
    const end = start + Math.round(chapter.seconds * 1000);
    lines.push('[CHAPTER]', 'TIMEBASE=1/1000', `START=${start}`, `END=${end}`, `title=${escape(chapter.title)}`);
    start = end;
  }
  return `${lines.join('\n')}\n`;
}
