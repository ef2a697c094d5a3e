/**
 * Markdown read aloud: the words stay, the markup goes. Headings, list items and table rows end as
 * sentences so the voice pauses between them; links keep their text, images their description; fenced code
 * is not spelled out symbol by symbol.
 */

/** What a fenced code block becomes, by primary language; elsewhere it is left out without a word. */
const CODE_BLOCK_SENTENCE: Record<string, string> = { en: 'Code block omitted.' };

const SENTENCE_END = /[.!?:;…。！？]["'”’)\]]*$/u;

function asSentence(line: string): string {
  const trimmed = line.trim();
  return trimmed === '' || SENTENCE_END.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Inline markup of one line: links, images, emphasis, inline code, HTML tags. */
export function stripInlineMarkdown(line: string): string {
  return line
    .replace(/!\[([^[\]]*)\]\([^()]*\)/g, '$1') // images → their description
    .replace(/\[([^[\]]+)\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, '$1') // [text](url "title")
    .replace(/\[([^[\]]+)\]\[[^[\]]*\]/g, '$1') // [text][ref]
    .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1') // autolinks keep the address for the URL reader
    .replace(/`([^`]+)`/g, (_, code: string) => code.replace(/[_(){}[\];]+/g, ' ').trim())
    .replace(/(\*\*|__)(?=\S)((?:(?!\1).)+?)(?<=\S)\1/g, '$2')
    .replace(/(?<![\w*])([*_])(?=\S)((?:(?!\1).)+?)(?<=\S)\1(?![\w*])/g, '$2')
    .replace(/~~(?=\S)((?:(?!~~).)+?)(?<=\S)~~/g, '$1')
    .replace(/<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g, ' ');
}

/**
 * A line without its closing `#`s and the spaces around them, trimmed by hand: as `\s*#*\s*$` a long run of
 * spaces inside the line was tried from each of its places.
 */
export function withoutClosingHashes(text: string): string {
  let end = text.trimEnd().length;
  while (end > 0 && text[end - 1] === '#') end--;
  return text.slice(0, end).trimEnd();
}

/** `---`, `* * *`, `___`: three or more of one mark and nothing else but spacing, checked by hand (a pattern
 * with a back-reference backtracked through a long line of them). */
function isHorizontalRule(line: string): boolean {
  const text = line.trim();
  const mark = text[0];
  if ((mark !== '-' && mark !== '*' && mark !== '_') || line.length - line.trimStart().length > 3) return false;
  let marks = 0;
  for (const char of text) {
    if (char === mark) marks++;
    else if (!/\s/.test(char)) return false;
  }
  return marks >= 3;
}

/** Turns Markdown (or plain text that uses a little of it) into text to speak. */
export function markdownToSpeech(text: string, languageCode = 'en'): string {
  const codeSentence = CODE_BLOCK_SENTENCE[languageCode.toLowerCase().split('-')[0]] ?? '';
  const out: string[] = [];
  let fence: string | undefined;
  for (const raw of text.split(/\r\n?|\n/)) {
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(raw);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length) fence = undefined;
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      out.push(codeSentence, '');
      continue;
    }
    let line = raw;
    if (/^\s{0,3}\[[^\]]+\]:\s*\S+/.test(line)) continue; // link reference definitions
    if (isHorizontalRule(line)) {
      // horizontal rule
      out.push('');
      continue;
    }
    if (/^\s*(?:\|\s*)?:?-{3,}:?(?:\s*\|\s*:?-{3,}:?)*(?:\s*\|)?\s*$/.test(line)) continue; // table separator row
    line = line.replace(/^\s{0,3}(>\s?)+/, ''); // block quotes
    const heading = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line);
    const item = /^\s*(?:[-*+]|\d{1,9}[.)])\s+(.*)$/.exec(line);
    const tableRow = /^\s*\|(.*)\|\s*$/.exec(line);
    if (heading) line = asSentence(stripInlineMarkdown(withoutClosingHashes(heading[1])));
    else if (item) line = asSentence(stripInlineMarkdown(item[1]));
    else if (tableRow)
      line = asSentence(
        tableRow[1]
          .split('|')
          .map((cell) => stripInlineMarkdown(cell).trim())
          .filter(Boolean)
          .join(', '),
      );
    else line = stripInlineMarkdown(line);
    out.push(line);
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}
