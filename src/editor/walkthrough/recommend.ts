/**
 * Which models the first-run walkthrough recommends: a whisper model sized for this machine's memory (the
 * English-only variant for English), and a natural voice for the editor's language. Pure, so it is tested
 * without VS Code.
 */
import type { CatalogEntry } from '../../models/catalog';
import { languageTagStartsWith } from '../../voices/language-tag';

const GIB = 1024 ** 3;

/** whisper sizes by the memory they leave room for: transcription takes about three times the file's size. */
function whisperSize(totalMemoryBytes: number): 'tiny' | 'base' | 'small' {
  if (totalMemoryBytes >= 8 * GIB) return 'small';
  if (totalMemoryBytes >= 4 * GIB) return 'base';
  return 'tiny';
}

/** The quantized whisper model for the machine and the language (`en…` gets the English-only model). */
export function recommendSttModel(
  catalog: readonly CatalogEntry[],
  language: string,
  totalMemoryBytes: number,
): CatalogEntry | undefined {
  const english = languageTagStartsWith(language, 'en');
  const size = whisperSize(totalMemoryBytes);
  const id = `whisper-${size}${english ? '-en' : ''}-q5_1`;
  return catalog.find((entry) => entry.id === id) ?? catalog.find((entry) => entry.kind === 'stt');
}

/** A catalog voice for the language: the same region first (`en-GB`), else the same language (`en`). */
export function recommendVoice(catalog: readonly CatalogEntry[], language: string): CatalogEntry | undefined {
  const voices = catalog.filter((entry) => entry.kind === 'tts-voice');
  const base = language.split('-')[0];
  return (
    voices.find((entry) => entry.languages.some((tag) => tag.toLowerCase() === language.toLowerCase())) ??
    voices.find((entry) => entry.languages.some((tag) => languageTagStartsWith(tag, base)))
  );
}
