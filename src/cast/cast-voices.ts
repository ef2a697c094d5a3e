/**
 * Which voice reads which part of a text under a cast (`.speech/cast.json`): a quote whose speaker the cast
 * gives a voice is read by that voice, everything else by the reader's own. The one rule the audiobook, Read
 * Aloud and Narrate Selection share.
 */
import path from 'node:path';
import { castFilePath, readCastFile, voiceOfQuote, type CastFile } from './cast-file';
import { quoteKey, splitQuotes, type TextPiece } from './quotes';
import { escapeXml } from '../text/escape-xml';
import type { VoiceEntry, VoiceLibrary } from '../voices/library';
import { isReadyVoice } from '../voices/voice-entry';
import { findVoice } from '../voices/voice-map';

export interface CastPiece extends TextPiece {
  /** The cast's voice (a voice id or name) for a quote its speaker reads; undefined: the reader's voice. */
  voice: string | undefined;
}

/** A paragraph's narration and quotes, each with the voice the cast gives it. */
export function castPieces(paragraph: string, cast: CastFile): CastPiece[] {
  return splitQuotes(paragraph).map((piece) => ({
    ...piece,
    voice: piece.kind === 'quote' ? voiceOfQuote(cast, quoteKey(piece.text)) : undefined,
  }));
}

export interface VoicedSpan {
  /** `[start, end)` in the text, the quotation marks included. */
  start: number;
  end: number;
  voice: string;
}

const BLANK_LINE = /\n[ \t\r]*\n/g;

/** The stretches of a whole text (paragraphs between blank lines) that the cast gives another voice, in order. */
export function castVoiceSpans(text: string, cast: CastFile): VoicedSpan[] {
  if (Object.keys(cast.lines).length === 0) return [];
  const spans: VoicedSpan[] = [];
  let paragraphStart = 0;
  const paragraph = (end: number): void => {
    for (const piece of castPieces(text.slice(paragraphStart, end), cast)) {
      if (piece.voice !== undefined)
        spans.push({ start: paragraphStart + piece.start, end: paragraphStart + piece.end, voice: piece.voice });
    }
  };
  for (const blank of text.matchAll(BLANK_LINE)) {
    paragraph(blank.index);
    paragraphStart = blank.index + blank[0].length;
  }
  paragraph(text.length);
  return spans;
}

/** The cast of the manuscript a file belongs to (`.speech/cast.json` in its folder); an empty cast when there is none. */
export const castOfFile = (file: string): Promise<CastFile> =>
  readCastFile(castFilePath(path.dirname(path.resolve(file))));

/**
 * The library voice a cast names (an id or exact name), when it is ready to speak; undefined: the quote is read
 * by the reader's voice (a cast may name a voice not installed here).
 */
export function readyCastVoice(voices: VoiceLibrary, name: string): VoiceEntry | undefined {
  const match = findVoice(voices, name);
  return match.found && isReadyVoice(match.entry.voice) ? match.entry : undefined;
}

/** A plain text as SSML whose voiced spans are `<voice name>` elements: one speech job reads them all. */
export function castSsml(text: string, spans: readonly VoicedSpan[]): string {
  let ssml = '<speak>';
  let at = 0;
  for (const span of spans) {
    ssml += `${escapeXml(text.slice(at, span.start))}<voice name="${escapeXml(span.voice)}">${escapeXml(text.slice(span.start, span.end))}</voice>`;
    at = span.end;
  }
  return `${ssml}${escapeXml(text.slice(at))}</speak>`;
}
