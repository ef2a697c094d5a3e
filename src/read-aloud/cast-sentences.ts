/**
 * Read Aloud under a cast: a sentence that holds a quote the cast gives another voice is cut at the quote's
 * edges (between words), and each part carries the voice that reads it (src/cast/cast-voices.ts decides).
 */
import type { VoicedSpan } from '../cast/cast-voices';
import type { ReadingSentence } from '../text/reading-sentences';

export interface VoicedSentence extends ReadingSentence {
  /** The cast's voice (a voice id or name) for this part; undefined: the reading's voice. */
  voice?: string;
}

const voiceAt = (spans: readonly VoicedSpan[], offset: number): string | undefined =>
  spans.find((span) => offset >= span.start && offset < span.end)?.voice;

/** The sentences cut where the voice changes; sentences outside every span come back as they were. */
export function castSentences(sentences: readonly ReadingSentence[], spans: readonly VoicedSpan[]): VoicedSentence[] {
  if (spans.length === 0) return [...sentences];
  return sentences.flatMap((sentence) => {
    // An SSML part names its own voices in its markup; cutting it would lose the markup.
    if (sentence.ssml) return [sentence];
    const words = sentence.text.split(' ');
    if (words.length !== sentence.wordStarts.length)
      return [{ ...sentence, voice: voiceAt(spans, sentence.wordStarts[0] ?? sentence.start) }];
    const parts: VoicedSentence[] = [];
    let first = 0;
    for (let at = 1; at <= words.length; at++) {
      const voice = voiceAt(spans, sentence.wordStarts[first]);
      if (at < words.length && voiceAt(spans, sentence.wordStarts[at]) === voice) continue;
      parts.push({
        start: first === 0 ? sentence.start : sentence.wordStarts[first],
        end: at === words.length ? sentence.end : sentence.wordStarts[at - 1] + words[at - 1].length,
        text: words.slice(first, at).join(' '),
        wordStarts: sentence.wordStarts.slice(first, at),
        ...(voice !== undefined ? { voice } : {}),
      });
      first = at;
    }
    return parts;
  });
}
