/**
 * Translates subtitle cues with a language model, whatever runs it: cue by cue with the neighbouring cues as
 * context, times kept, lines laid out again by the subtitle style; a translation that would read faster than
 * the style allows is rewritten once under a grammar that bounds its length, or flagged when so short a
 * rewrite would lose too much.
 */
import type { SubtitleStyle } from '../contract/subtitle-style';
import { layoutLines } from '../subtitles/edits';
import { characterCount } from '../subtitles/word-timing';
import {
  answerSchema,
  cueInContext,
  parseAnswer,
  shorteningPrompt,
  translationPrompt,
  translationRoom,
  type AnswerSchema,
  type ChatPrompt,
} from './translate-prompt';

/** Asks the model once: the prompt, answered as JSON text under the schema's grammar. */
export type AskModel = (prompt: ChatPrompt, schema: AnswerSchema) => Promise<string>;

export interface SourceCue {
  start: number;
  end: number;
  text: string;
  speaker?: string;
}

export interface TranslatedCue {
  start: number;
  end: number;
  lines: string[];
  speaker?: string;
}

/** A cue left reading faster than the style allows: its place (from 1) and its speed in characters per second. */
export interface FlaggedCue {
  index: number;
  charsPerSecond: number;
}

export interface CueTranslation {
  cues: TranslatedCue[];
  /** Cues (from 1) the model shortened to fit the reading speed. */
  shortened: number[];
  flagged: FlaggedCue[];
}

export interface TranslateOptions {
  to: string;
  from?: string;
  style: SubtitleStyle;
  ask: AskModel;
  /** Called after each cue with the share done, 0–1. */
  onProgress?(done: number): void;
}

/** A rewrite shorter than this share of the translation would drop too much meaning: the cue is flagged instead. */
export const MIN_SHORTENED_SHARE = 0.5;

/** Characters per second of a cue's text (lines joined) over its time on screen. */
export function readingSpeed(text: string, start: number, end: number): number {
  const seconds = Math.max(end - start, 0.001);
  return characterCount(text) / seconds;
}

/** The most characters a cue of this duration may hold at the style's reading speed. */
export function charactersThatFit(start: number, end: number, style: SubtitleStyle): number {
  return Math.floor(Math.max(end - start, 0) * style.maxCharsPerSecond);
}

async function askFor(ask: AskModel, prompt: ChatPrompt, maxChars: number): Promise<string> {
  return parseAnswer(await ask(prompt, answerSchema(maxChars)));
}

/** Translates every cue in order; the model is asked once per cue, and once more for a cue that reads too fast. */
export async function translateCues(cues: readonly SourceCue[], options: TranslateOptions): Promise<CueTranslation> {
  const { to, from, style, ask } = options;
  const texts = cues.map((cue) => cue.text.replace(/\s+/g, ' ').trim());
  const result: CueTranslation = { cues: [], shortened: [], flagged: [] };
  for (let i = 0; i < cues.length; i++) {
    const cue = cues[i];
    let text = texts[i]
      ? await askFor(ask, translationPrompt(cueInContext(texts, i), to, from), translationRoom(texts[i]))
      : '';
    const fit = charactersThatFit(cue.start, cue.end, style);
    const length = characterCount(text);
    if (length > fit) {
      if (fit >= Math.ceil(length * MIN_SHORTENED_SHARE)) {
        text = await askFor(ask, shorteningPrompt(text, fit, to), fit);
        result.shortened.push(i + 1);
      }
      if (characterCount(text) > fit)
        result.flagged.push({
          index: i + 1,
          charsPerSecond: Math.round(readingSpeed(text, cue.start, cue.end) * 10) / 10,
        });
    }
    const words = text.split(' ').filter(Boolean);
    result.cues.push({
      start: cue.start,
      end: cue.end,
      lines: layoutLines(words, style.maxLineChars, style.maxLines),
      ...(cue.speaker === undefined ? {} : { speaker: cue.speaker }),
    });
    options.onProgress?.((i + 1) / cues.length);
  }
  return result;
}
