/**
 * Hears a synthesized take back and scores it against the text it should say, with the existing word
 * error scorer: the installed recognizer transcribes it, or, when none is installed, the espeak-ng aligner
 * looks for each phrase of the text in it (a phrase the alignment passes over in a moment was not said, and
 * its words count as deleted). Phrases, not words: the aligner places units of a few words reliably, single
 * short words not (a good take of another voice then loses a third of its words). So the aligner's rate is
 * coarse, and a paragraph of one phrase cannot be judged by it at all.
 */
import { readFile } from 'node:fs/promises';
import type { TakeScorer } from '../../audiobook/book-plan';
import { scoringWords, wordErrors } from '../../text/word-error-rate';
import { alignSpeech } from '../align/align-speech';
import { renditionVoice } from '../align/rendition';
import { readWavSamples } from '../../audio/wav-reader';
import { decodeToPcm16 } from '../media/decode-pcm16';
import { mediaToolchain } from '../media/media-toolchain';
import { openRecognizer } from '../stt/recognizers/open-recognizer';
import { keepSpeech, recognize } from '../stt/run-stt';
import { toWhisperLanguage } from '../../models/whisper-languages';
import { sttThreadCount } from '../stt/whisper-session';

export interface HeardTake {
  wer: number;
  heard: string;
  /** Why the take could not be judged (its rate is then 0). */
  unjudged?: string;
}

/** Words per phrase the aligner looks for. */
const PHRASE_WORDS = 3;

const ignoreProgress = (): void => undefined;

/** The scorer's name, as reports show it. */
export function scorerName(scorer: TakeScorer): string {
  return scorer.kind === 'recognizer'
    ? `${scorer.model} (speech recognition)`
    : 'espeak-ng alignment (no recognizer installed)';
}

export async function hearTake(scorer: TakeScorer, wav: string, text: string): Promise<HeardTake> {
  if (scorer.kind === 'aligner') return alignedPhrases(scorer.language, wav, text);
  const heard = await transcribe(scorer, wav);
  return { wer: wordErrors(text, heard).wer, heard };
}

async function transcribe(scorer: Extract<TakeScorer, { kind: 'recognizer' }>, wav: string): Promise<string> {
  const language = toWhisperLanguage(scorer.language) ?? 'auto';
  const pcm = await decodeToPcm16(wav, mediaToolchain());
  const threads = sttThreadCount();
  const recognizer = await openRecognizer(scorer.modelPath, language);
  const speech = await keepSpeech(scorer.modelPath, pcm, threads, ignoreProgress);
  const recognized = await recognize(recognizer, speech, language, threads, ignoreProgress, {});
  return recognized.text.trim();
}

/** The text's words in phrases of PHRASE_WORDS, the first one `first` words long. */
function phrasesOf(words: readonly string[], first: number): string[] {
  const phrases = [words.slice(0, first).join(' ')];
  for (let at = first; at < words.length; at += PHRASE_WORDS)
    phrases.push(words.slice(at, at + PHRASE_WORDS).join(' '));
  return phrases;
}

/**
 * The text's phrases the alignment found in the take, in order: the words of the others are the deletions.
 * The text is cut into phrases three ways (each phrase boundary moved by a word) and the best is kept: a
 * phrase the aligner misplaces at one boundary it places at another, while words the take lacks are
 * missing from all three.
 */
async function alignedPhrases(language: string, wav: string, text: string): Promise<HeardTake> {
  const words = scoringWords(text);
  if (words.length <= PHRASE_WORDS)
    return {
      wer: 0,
      heard: text,
      unjudged: `too short for the aligner to judge (fewer than ${PHRASE_WORDS + 1} words)`,
    };
  const { info, samples } = readWavSamples(await readFile(wav));
  const mono = info.channels === 1 ? samples : samples.filter((_, index) => index % info.channels === 0);
  let best: HeardTake | undefined;
  for (let first = 1; first <= PHRASE_WORDS; first++) {
    const phrases = phrasesOf(words, first);
    const alignment = await alignSpeech({
      pcm: mono,
      sampleRate: info.sampleRate,
      speech: null,
      texts: phrases,
      voice: renditionVoice(language),
    });
    const heard = phrases.filter((_, index) => alignment.units[index]?.matched).join(' ');
    const wer = wordErrors(text, heard).wer;
    if (!best || wer < best.wer) best = { wer, heard };
    if (wer === 0) break;
  }
  return best!;
}
