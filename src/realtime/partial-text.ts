/**
 * The cost bound of live partial text: which audio a partial decode looks at, how often, and how much of its
 * answer counts. Decodes cover only the audio since the last trim point (where agreed words ended a sentence,
 * or where the window grew past WINDOW_LIMIT), with the agreed words before it as whisper's prompt; they
 * come at most once per DECODE_EVERY of new audio; a decode's tokens are capped by its audio's length.
 * Which words are sent stays LocalAgreement-2 over the whole utterance (StablePrefix): the words before the
 * trim point are agreed already and lead every hypothesis, so deltas still never retract.
 */
import type { LiveWord } from '../engine-api/protocol';
import { StablePrefix } from './stable-prefix';

const RATE = 16_000;
/** A partial decode needs this much new audio since the last one (whisper_streaming's 1 s minimum chunk). */
export const DECODE_EVERY = RATE;
/** Past this much audio in the window, it is trimmed after the last agreed word, sentence end or not. */
export const WINDOW_LIMIT = 10 * RATE;
/** Agreed text handed to whisper as the prompt of the next window, at most (whisper_streaming's 200 characters). */
export const PROMPT_CHARS = 200;

/**
 * The most tokens a partial decode of `samples` of audio may keep: speech runs at most about 4–5 tokens a
 * second, so 6 a second and 8 more never cut real speech, and a model that runs on (random weights, a
 * hallucination loop) cannot flood the partial text.
 */
export function tokenCap(samples: number): number {
  return Math.ceil((6 * samples) / RATE) + 8;
}

export interface PartialWindow {
  /** The first sample (since the session began) the decode looks at. */
  from: number;
  /** Agreed words before `from`, as context for the decoder (may be empty). */
  prompt: string;
}

export class PartialText {
  private readonly agreement = new StablePrefix();
  /** Agreed words before `anchor`: they lead every hypothesis. */
  private fixed: string[] = [];
  /** The end (sample index) of each agreed word, as the decode that agreed on it placed it. */
  private readonly agreedEnds: number[] = [];
  private anchor: number;
  private decodedUpTo: number;

  constructor(start: number) {
    this.anchor = start;
    this.decodedUpTo = start;
  }

  /** Every word sent so far, in order. */
  get text(): string {
    return this.agreement.text;
  }

  /** Whether enough new audio arrived, up to sample `to`, for another partial decode. */
  due(to: number): boolean {
    return to - this.decodedUpTo >= DECODE_EVERY;
  }

  /** Where the next partial decode starts, and the prompt it carries. */
  window(): PartialWindow {
    const agreed = this.fixed.join(' ');
    // Cut to whole words: a prompt that starts mid-word reads as a different word.
    return {
      from: this.anchor,
      prompt: agreed.length <= PROMPT_CHARS ? agreed : agreed.slice(-PROMPT_CHARS).replace(/^\S*\s?/, ''),
    };
  }

  /**
   * Takes one partial decode of `[from, to)` (`words` in seconds from `from`, already capped) and answers the
   * words it releases (LocalAgreement-2). Then trims the window at the last agreed word when that word ends a
   * sentence or the window has grown past WINDOW_LIMIT.
   */
  update(from: number, to: number, words: readonly LiveWord[]): string[] {
    this.decodedUpTo = to;
    if (from !== this.anchor) return [];
    const released = this.agreement.update([...this.fixed, ...words.map((word) => word.text)]);
    const agreedInWindow = this.agreement.count - this.fixed.length;
    for (const word of words.slice(agreedInWindow - released.length, agreedInWindow)) {
      this.agreedEnds.push(Math.min(to, Math.max(this.anchor, from + Math.round(word.end * RATE))));
    }
    const agreed = this.agreement.words;
    let cut = -1;
    for (let i = agreed.length - 1; i >= this.fixed.length && cut < 0; i -= 1) if (/[.?!]$/.test(agreed[i])) cut = i;
    if (cut < 0 && to - this.anchor > WINDOW_LIMIT && agreed.length > this.fixed.length) cut = agreed.length - 1;
    if (cut >= 0) {
      this.anchor = this.agreedEnds[cut];
      this.fixed = agreed.slice(0, cut + 1);
    }
    return released;
  }
}
