/**
 * The installed whisper model as refine-boundaries.ts needs it: a stretch of the media in, the words it
 * heard out, in seconds of the media. Only words with the recognizer's own token times count: words whose
 * times were shared out over a longer span (estimated) say nothing about boundaries, which is also why
 * Parakeet (whose pieces are spans) does not refine alignments.
 */
import path from 'node:path';
import { openRecognizer } from '../stt/recognizers/open-recognizer';
import { sttModelKind } from '../stt/stt-model-kind';
import { wordsFromPieces } from '../stt/recognized-words';
import { toWhisperLanguage } from '../../models/whisper-languages';
import type { Recognize } from './refine-boundaries';

export interface AlignRecognizer {
  recognize: Recognize;
  /** The model file that refined the alignment, for the result. */
  model: string;
}

/**
 * Opens the recognizer for a script in `language` (`auto`: English, as the rendition reads it); null when
 * it cannot decode that language (an English-only model and a German script): the alignment then stands
 * as the warp made it.
 */
export async function openAlignRecognizer(
  modelPath: string,
  language: string,
  pcm: Int16Array,
  sampleRate: number,
  threads: number,
): Promise<AlignRecognizer | null> {
  const requested = toWhisperLanguage(language === 'auto' ? 'en' : language);
  if (!requested || sttModelKind(modelPath) === 'parakeet') return null;
  const recognizer = await openRecognizer(modelPath, requested).catch(() => null);
  if (!recognizer) return null;
  return {
    model: path.basename(modelPath),
    async recognize(start, end) {
      const from = Math.max(0, Math.floor(start * sampleRate));
      const samples = pcm.slice(from, Math.min(pcm.length, Math.ceil(end * sampleRate)));
      const heard = await recognizer.recognize({
        samples,
        stretches: [{ start: 0, end: samples.length / sampleRate }],
        threads,
        onProgress: () => undefined,
      });
      if (heard.timing !== 'tokens') return [];
      const offset = from / sampleRate;
      return (wordsFromPieces(heard.pieces, heard.text) ?? [])
        .filter((word) => !word.estimated)
        .map((word) => ({
          text: word.text.trim(),
          start: offset + word.startMs / 1000,
          end: offset + word.endMs / 1000,
        }));
    },
  };
}
