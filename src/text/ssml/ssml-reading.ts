/**
 * Read Aloud's parts of SSML: an `.ssml` document or a ```ssml block of Markdown is cut into parts at its
 * pauses (breaks, sentence and paragraph ends), each spoken as one sentence of the reading and highlighted by
 * where its markup is written. The editor and the engine both cut and label a part here, so the engine's
 * step times land on the ranges the editor highlights.
 */
import { parseSsml } from './parse-ssml';
import type { SourceRange, SsmlStep } from './ssml-plan';

/** One part of an SSML text, carried by the Read Aloud sentence that speaks it. */
export interface SsmlPart {
  /** The SSML text the part is cut from: a whole `.ssml` document or one ```ssml block. */
  source: string;
  /** The part is steps `[from, to)` of the source's plan. */
  from: number;
  to: number;
  /** The part opens with its own silence (the SSML's break), which stands instead of the reader's pause. */
  startsWithPause: boolean;
  /** Each step that sounds: its span in the sentence's text, and where it is written, from the sentence's start. */
  spans: { text: SourceRange; source: SourceRange }[];
}

/** The sentence's text of steps (each speech run, or an audio file's fallback text or name) and each one's span in it. */
export function partText(steps: readonly SsmlStep[]): { text: string; spans: (SourceRange & { step: number })[] } {
  let text = '';
  const spans: (SourceRange & { step: number })[] = [];
  for (const [step, item] of steps.entries()) {
    if (item.kind === 'pause') continue;
    const said = item.kind === 'speech' ? item.text : item.fallback || item.src;
    if (text) text += ' ';
    spans.push({ start: text.length, end: text.length + said.length, step });
    text += said;
  }
  return { text, spans };
}

/** A sentence of an SSML text: where it is written (offsets of the document), what it says, and its part. */
export interface SsmlSentence {
  start: number;
  end: number;
  text: string;
  ssml: SsmlPart;
}

/**
 * The parts of an SSML text that starts at `offset` of the document, in order; throws SsmlError for
 * malformed markup. `language` is the reading voice's, for `say-as`.
 */
export function ssmlSentences(source: string, offset: number, language: string): SsmlSentence[] {
  const { steps } = parseSsml(source, language);
  const sentences: SsmlSentence[] = [];
  let from = 0;
  const close = (to: number): void => {
    const part = steps.slice(from, to);
    const sounding = part.filter((step) => step.kind !== 'pause');
    if (sounding.length > 0) {
      const start = offset + Math.min(...sounding.map((step) => step.at.start));
      const end = offset + Math.max(...sounding.map((step) => step.at.end));
      const { text, spans } = partText(part);
      sentences.push({
        start,
        end,
        text,
        ssml: {
          source,
          from,
          to,
          startsWithPause: part[0].kind === 'pause',
          spans: spans.map((span) => {
            const at = (part[span.step] as Exclude<SsmlStep, { kind: 'pause' }>).at;
            return {
              text: { start: span.start, end: span.end },
              source: { start: offset + at.start - start, end: offset + at.end - start },
            };
          }),
        },
      });
      from = to;
    }
  };
  for (const [index, step] of steps.entries()) {
    if (step.kind === 'pause' && steps[index - 1]?.kind !== 'pause') close(index);
  }
  close(steps.length);
  return sentences;
}

/** The written range of what a sentence's text says at `[start, …)`, from the sentence's start; undefined between steps. */
export function ssmlSpanAt(part: SsmlPart, start: number): SourceRange | undefined {
  return part.spans.find((span) => start >= span.text.start && start < span.text.end)?.source;
}
