/**
 * The lexicon as one TTS job's engine uses it: applied to every piece of text after normalization (so
 * espeak-ng's `[[…]]` phonemes survive it), with one report for the whole job.
 */
import type { LexiconEntry, LexiconReport } from '../contract/types';
import type { TtsEngineName } from '../voices/voice-ref';
import { compileLexicon, espeakPhonemes, type PhonemeWriter } from './apply-lexicon';

/**
 * Engines that take espeak-ng phonemes inline. sherpa-onnx's Piper, Kokoro, Kitten and Matcha voices
 * phonemize with espeak-ng internally but take only text, so they speak an entry's `say`.
 */
const PHONEME_WRITERS: Partial<Record<TtsEngineName, PhonemeWriter>> = { 'espeak-ng': espeakPhonemes };

export interface JobLexicon {
  apply(text: string): string;
  /** What was applied and skipped over every piece so far; undefined when the job had no entries. */
  report(): LexiconReport | undefined;
}

export function lexiconForEngine(
  entries: readonly LexiconEntry[] | undefined,
  language: string,
  engine: TtsEngineName,
): JobLexicon {
  if (!entries || entries.length === 0) return { apply: (text) => text, report: () => undefined };
  const applied = new Set<string>();
  const skipped = new Map<string, string>();
  const applyTo = compileLexicon(entries, language, PHONEME_WRITERS[engine]);
  return {
    apply(text) {
      const result = applyTo(text);
      for (const name of result.report.applied) applied.add(name);
      for (const { text: name, reason } of result.report.skipped)
        skipped.set(name, `${engine} ${reason.replace(/^the engine /, '')}`);
      return result.text;
    },
    report() {
      const stillSkipped = [...skipped].filter(([name]) => !applied.has(name));
      return { applied: [...applied], skipped: stillSkipped.map(([text, reason]) => ({ text, reason })) };
    },
  };
}
