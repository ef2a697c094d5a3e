/** A copy of a text with its silent characters blanked to spaces: same length, so offsets stay source offsets. */

/** A masked source and the offsets where a sentence must end (headings, list items, table rows, comment ends). */
export interface MaskedText {
  text: string;
  breaks: number[];
}

/** Blanks `[from, to)` of a character array, keeping line breaks (so lines stay lines). */
export function blank(chars: string[], from: number, to: number): void {
  for (let i = Math.max(0, from); i < Math.min(to, chars.length); i++) {
    if (chars[i] !== '\n' && chars[i] !== '\r') chars[i] = ' ';
  }
}
