/**
 * Which voice reads best for a language: neural voices (Kokoro, Piper by its quality tier, Kitten) over
 * SVOX Pico and Flite over espeak-ng. The editor's default voice (setting empty) is the best ready one, and
 * the voice it recommends installing is the best not-installed catalog voice of a reasonable download.
 */
import type { Voice } from '../contract/types';
import { languageTagStartsWith } from './language-tag';
import type { TtsEngineName } from './voice-ref';

/** What the ranking reads of a library entry. */
export interface RankableVoice {
  voice: Pick<Voice, 'id' | 'name' | 'languageCode' | 'availability'>;
  engine: TtsEngineName;
  /** For catalog voices, the catalog id (and `#speaker` for a multi-speaker model). */
  engineVoiceId: string;
}

/** Piper's quality tiers, the last word of its catalog ids (`piper-en-us-lessac-medium`). */
const PIPER_TIERS: Record<string, number> = { high: 90, medium: 80, low: 70, x_low: 65 };
/** Flite's voices: SLT and RMS are its clearest, KAL16 a diphone voice. */
const FLITE_ORDER: Record<string, number> = { slt: 3, rms: 2, awb: 1, kal16: 0 };

/**
 * A score of how natural the voice sounds; higher is better.
 *
 * @example voiceQuality({ engine: 'sherpa-onnx', engineVoiceId: 'piper-en-us-lessac-medium', voice }) // 80
 */
export function voiceQuality(entry: Pick<RankableVoice, 'engine' | 'engineVoiceId'>): number {
  const id = entry.engineVoiceId.toLowerCase();
  switch (entry.engine) {
    case 'sherpa-onnx': {
      if (id.startsWith('kokoro-multi-lang-v1')) return 100;
      if (id.startsWith('kokoro')) return 95;
      if (id.startsWith('kitten')) return 75;
      const tier = /^piper-.*-(high|medium|low|x_low)(#|$)/.exec(id)?.[1];
      // A neural voice the user added (a folder with a voice.json) or of another family.
      return tier ? PIPER_TIERS[tier] : 60;
    }
    case 'svox-pico':
      return 40;
    case 'flite':
      return 30 + (FLITE_ORDER[id] ?? 0);
    case 'espeak-ng':
      return 10;
  }
}

/** True for the voices Kokoro, Kitten, Piper and other sherpa-onnx models speak with. */
export const isNeuralVoice = (entry: Pick<RankableVoice, 'engine'>): boolean => entry.engine === 'sherpa-onnx';

/**
 * The languages to look in, in order: the editor's tag, its primary language, then English.
 *
 * @example languageChain('pt-BR') // ['pt-br', 'pt', 'en-us', 'en']
 */
export function languageChain(language: string): string[] {
  return [...new Set([...ownLanguages(language), 'en-us', 'en'])];
}

/** Chinese books are tagged `zh`; its voices by the spoken language: Mandarin (`cmn`), Cantonese (`yue`). */
const MACROLANGUAGE_MEMBERS: Record<string, string[]> = { zh: ['cmn', 'yue'] };

/**
 * The tags a voice of `language` itself may carry, most exact first, with no fallback to another language.
 *
 * @example ownLanguages('zh-CN') // ['zh-cn', 'zh', 'cmn', 'yue']
 */
export function ownLanguages(language: string): string[] {
  const tag = language.trim().toLowerCase() || 'en';
  const primary = tag.split('-')[0];
  return [...new Set([tag, primary, ...(MACROLANGUAGE_MEMBERS[primary] ?? [])])];
}

/**
 * The best voice among `voices` for `language` (or, with `fallBackToEnglish` false, none when no voice
 * speaks that language): the voices of the first language of the chain that has any,
 * the highest quality first, then the one whose tag is that language exactly (for `en`: `en-US`), then by
 * name. Undefined when none matches.
 */
export function bestVoiceFor<T extends RankableVoice>(
  voices: readonly T[],
  language: string,
  fallBackToEnglish = true,
): T | undefined {
  const chain = fallBackToEnglish ? languageChain(language) : ownLanguages(language);
  for (const step of chain) {
    const matching = voices.filter((entry) => languageTagStartsWith(entry.voice.languageCode, step));
    if (matching.length > 0) return [...matching].sort(rankedFor(chain))[0];
  }
  return undefined;
}

/** The best ready voice for `language`, e.g. the default voice when none is configured. */
export function bestReadyVoice<T extends RankableVoice>(
  voices: readonly T[],
  language: string,
  fallBackToEnglish = true,
): T | undefined {
  return bestVoiceFor(
    voices.filter((entry) => entry.voice.availability === 'ready'),
    language,
    fallBackToEnglish,
  );
}

/** The largest download the first Read Aloud offers unasked: a few minutes on an ordinary connection. */
export const RECOMMENDED_MAX_BYTES = 200_000_000;

/**
 * The neural voice to offer for `language`: the best not-installed one whose download (`bytesOf`, null when
 * unknown) is at most `maxBytes`; undefined when there is none.
 */
export function recommendedVoice<T extends RankableVoice>(
  voices: readonly T[],
  language: string,
  bytesOf: (entry: T) => number | null,
  maxBytes = RECOMMENDED_MAX_BYTES,
): T | undefined {
  const offered = voices.filter(
    (entry) =>
      isNeuralVoice(entry) && entry.voice.availability === 'not_installed' && (bytesOf(entry) ?? Infinity) <= maxBytes,
  );
  return bestVoiceFor(offered, language);
}

function rankedFor(chain: readonly string[]): (a: RankableVoice, b: RankableVoice) => number {
  const exactness = (entry: RankableVoice): number => {
    const at = chain.indexOf(entry.voice.languageCode.toLowerCase());
    return at < 0 ? chain.length : at;
  };
  return (a, b) =>
    voiceQuality(b) - voiceQuality(a) ||
    exactness(a) - exactness(b) ||
    a.voice.name.localeCompare(b.voice.name, 'en') ||
    (a.voice.id < b.voice.id ? -1 : 1);
}
