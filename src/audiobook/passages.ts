/**
 * A chapter as the audiobook synthesizes it: paragraphs (blank-line separated, fenced code kept whole),
 * each with the speaker whose voice reads it. `<!-- voice: X -->` on its own switches the voice for the
 * paragraphs after it (X is a voice id or name; `default` switches back), and a paragraph that starts with
 * `Name:` for a name the book maps to a voice is read by that voice, as subtitle narration does with
 * `Name:` prefixes. A paragraph is the unit the re-export cache keys on, so an edit re-reads one paragraph.
 * A fenced ```ssml block, or a paragraph that starts with `<speak>`, is one passage of SSML (docs/ssml.md).
 * With a cast (`.speech/cast.json`, src/cast/), a paragraph whose quotes the cast gives a voice is read in
 * pieces: each quote by its speaker's voice, the narration around it by the paragraph's voice.
 */
import { looksLikeSsml } from '../text/ssml/ssml-plan';
import type { CastFile } from '../cast/cast-file';
import { castPieces } from '../cast/cast-voices';

export interface Passage {
  text: string;
  /** The voice id or name asked for, or undefined for the book's voice. */
  voice: string | undefined;
  /** The text is SSML. */
  ssml?: true;
}

const SSML_FENCE = /^(```|~~~)\s*ssml\s*\n([\s\S]*?)\n\1\s*$/i;

/** The SSML of a block: the inside of a ```ssml fence, or a block that is a `<speak>` document. */
export function ssmlOfBlock(block: string): string | undefined {
  const fenced = SSML_FENCE.exec(block.trim());
  if (fenced) return fenced[2];
  return looksLikeSsml(block) ? block.trim() : undefined;
}

const VOICE_TAG = /^<!--\s*voice:\s*(.+?)\s*-->$/i;
const SPEAKER_PREFIX = /^([\p{L}][\p{L}\p{N} .'-]{0,40}):\s+(\S[\s\S]*)$/u;

/** Blank-line separated blocks of Markdown; a fenced code block with blank lines inside stays one block. */
function blocks(markdown: string): string[] {
  const result: string[] = [];
  let current: string[] = [];
  let inFence = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (/^(```|~~~)/.test(line.trim())) inFence = !inFence;
    if (!inFence && line.trim() === '') {
      if (current.length > 0) result.push(current.join('\n'));
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.length > 0) result.push(current.join('\n'));
  return result;
}

/**
 * The passages of a chapter. `speakers` maps names (as in `Name:` prefixes) to voices; `startVoice` is the
 * voice a `<!-- voice: -->` tag of an earlier chapter left in force; the answer says which one this chapter
 * leaves.
 */
export function chapterPassages(
  markdown: string,
  speakers: Readonly<Record<string, string>>,
  startVoice?: string,
  cast?: CastFile,
): { passages: Passage[]; endVoice: string | undefined } {
  const passages: Passage[] = [];
  let voice = startVoice;
  const speakerNames = new Map(Object.keys(speakers).map((name) => [name.toLowerCase(), name]));
  for (const block of blocks(markdown)) {
    const tag = VOICE_TAG.exec(block.trim());
    if (tag) {
      voice = tag[1].toLowerCase() === 'default' ? undefined : tag[1];
      continue;
    }
    const ssml = ssmlOfBlock(block);
    if (ssml !== undefined) {
      passages.push({ text: ssml, voice, ssml: true });
      continue;
    }
    const prefix = SPEAKER_PREFIX.exec(block.trim());
    const speaker = prefix ? speakerNames.get(prefix[1].trim().toLowerCase()) : undefined;
    if (prefix && speaker !== undefined) {
      passages.push({ text: prefix[2], voice: speakers[speaker] });
    } else if (/[\p{L}\p{N}]/u.test(block)) {
      passages.push(...castPassages(block, voice, cast));
    }
  }
  return { passages, endVoice: voice };
}

/** A paragraph as one passage, or, when the cast voices any of its quotes, as narration and quotes in turn. */
function castPassages(block: string, voice: string | undefined, cast: CastFile | undefined): Passage[] {
  if (!cast) return [{ text: block, voice }];
  const pieces = castPieces(block, cast);
  if (!pieces.some((piece) => piece.voice !== undefined)) return [{ text: block, voice }];
  return pieces
    .filter((piece) => /[\p{L}\p{N}]/u.test(piece.text))
    .map((piece) => ({ text: piece.text, voice: piece.voice ?? voice }));
}

/** `Ann=<voice>, Bob=<voice>` (the CLI flag and the front matter's `speakers:` line) as a map. */
export function parseSpeakerList(list: string | undefined): Record<string, string> {
  const speakers: Record<string, string> = {};
  for (const pair of (list ?? '').split(/[,;]/)) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    const voice = pair.slice(at + 1).trim();
    if (name && voice) speakers[name] = voice;
  }
  return speakers;
}
