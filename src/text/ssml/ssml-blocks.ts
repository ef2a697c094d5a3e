/**
 * Where SSML stands in a document the editor shows: all of an `.ssml` file, or each ```ssml fenced block of a
 * Markdown file (the same blocks the audiobook reads as SSML passages). Lines and columns count from 0, as
 * editors do, so a reader's 1-based position maps onto the document by adding the block's start.
 */

export interface SsmlBlock {
  text: string;
  /** The document line the block's first line is on. */
  line: number;
  /** The last document line of the block. */
  endLine: number;
}

const OPEN_FENCE = /^\s*(```|~~~)\s*ssml\s*$/i;

export function ssmlBlocks(document: string, languageId: string): SsmlBlock[] {
  const lines = document.split(/\r?\n/);
  if (languageId === 'ssml') return [{ text: document, line: 0, endLine: lines.length - 1 }];
  if (languageId !== 'markdown') return [];
  const blocks: SsmlBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN_FENCE.exec(lines[i]);
    if (!open) continue;
    const close = lines.findIndex((line, at) => at > i && line.trim() === open[1]);
    const end = close < 0 ? lines.length : close;
    blocks.push({ text: lines.slice(i + 1, end).join('\n'), line: i + 1, endLine: end - 1 });
    i = end;
  }
  return blocks;
}

/** The block a line is in, if any. */
export function ssmlBlockAt(document: string, languageId: string, line: number): SsmlBlock | undefined {
  return ssmlBlocks(document, languageId).find((block) => line >= block.line && line <= block.endLine);
}
