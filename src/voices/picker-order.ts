/**
 * The order and wording of the voice picker, with no editor in it: the current voice first, then the
 * favourites, the installed voices, the voices of the user's language, and the rest by language; each voice
 * once (a Kokoro speaker two models offer is listed for the model that has it installed, else the newer);
 * among equals natural voices before built-in ones and open licences before restrictive ones.
 */
import { voiceDownload } from './voice-download';
import { isReadyVoice, type VoiceEntry } from './voice-entry';

/** How a voice sounds: neural models read naturally; espeak-ng, Flite and SVOX Pico sound synthetic. */
export type VoiceTier = 'natural' | 'built-in';

export type PickerSection = 'current' | 'favourite' | 'installed' | 'your-language' | 'other';

export interface PickerRow {
  entry: VoiceEntry;
  section: PickerSection;
  tier: VoiceTier;
  /** Where the voice's licence and card are, when known. */
  licenseUrl?: string;
  /** "installed", "installing", or "download, 63 MB". */
  state: string;
  favourite: boolean;
}

export interface PickerContext {
  currentId: string;
  favourites: ReadonlySet<string>;
  /** The editor's display language (`en`, `pt-br`); its primary subtag selects "your language". */
  uiLanguage: string;
}

const BUILTIN_LICENSE_URLS: Record<string, string> = {
  'espeak-ng': 'https://github.com/espeak-ng/espeak-ng/blob/master/COPYING',
  flite: 'https://github.com/festvox/flite/blob/master/COPYING',
  'svox-pico': 'https://android.googlesource.com/platform/external/svox/+/refs/heads/main/pico/NOTICE',
};

export function voiceTier(entry: VoiceEntry): VoiceTier {
  return entry.engine === 'espeak-ng' || entry.engine === 'flite' || entry.engine === 'svox-pico'
    ? 'built-in'
    : 'natural';
}

/** 0: public domain, 1: permissive with attribution, 2: copyleft, unknown or "see the card". */
export function licenseOpenness(license: string): number {
  if (/public domain|\bCC0\b/i.test(license)) return 0;
  if (/^(CC-BY-\d|Apache|MIT|BSD)|\bBSD-style\b/i.test(license)) return 1;
  return 2;
}

export function licenseUrlOf(entry: VoiceEntry): string | undefined {
  const download = voiceDownload(entry);
  if (download) return download.entry.licenseUrl ?? download.entry.homepage;
  return BUILTIN_LICENSE_URLS[entry.engine];
}

function stateOf(entry: VoiceEntry): string {
  if (isReadyVoice(entry.voice)) return 'installed';
  if (entry.voice.availability === 'installing') return 'installing';
  const bytes = voiceDownload(entry)?.bytes;
  return bytes ? `download, ${Math.max(1, Math.round(bytes / 1e6))} MB` : 'download';
}

/** Kokoro v0.19 and v1.0 share speakers: the key a speaker has whichever model offers it. */
function speakerKey(entry: VoiceEntry): string {
  const [model, speaker] = entry.engineVoiceId.split('#');
  return speaker && model.startsWith('kokoro-') ? `kokoro#${speaker}` : entry.voice.id;
}

/** Which of two offers of one speaker to show: the current, the installed, else the newer model (later in the catalog). */
function preferredOffer(a: VoiceEntry, b: VoiceEntry, currentId: string): VoiceEntry {
  if (a.voice.id === currentId) return a;
  if (b.voice.id === currentId) return b;
  if (isReadyVoice(a.voice) !== isReadyVoice(b.voice)) return isReadyVoice(a.voice) ? a : b;
  return b;
}

export function withoutDuplicates(entries: VoiceEntry[], currentId: string): VoiceEntry[] {
  const kept = new Map<string, VoiceEntry>();
  for (const entry of entries) {
    const key = speakerKey(entry);
    const other = kept.get(key);
    kept.set(key, other ? preferredOffer(other, entry, currentId) : entry);
  }
  return [...kept.values()];
}

const primaryOf = (code: string): string => code.toLowerCase().split(/[-_]/)[0];

function sectionOf(entry: VoiceEntry, context: PickerContext): PickerSection {
  if (entry.voice.id === context.currentId) return 'current';
  if (context.favourites.has(entry.voice.id)) return 'favourite';
  if (isReadyVoice(entry.voice)) return 'installed';
  if (primaryOf(entry.voice.languageCode) === primaryOf(context.uiLanguage)) return 'your-language';
  return 'other';
}

const SECTION_ORDER: PickerSection[] = ['current', 'favourite', 'installed', 'your-language', 'other'];

/** Ready voices, and the not-installed voices the catalog can install (SVOX Pico's lingware is installed apart). */
export const isOffered = (entry: VoiceEntry): boolean =>
  isReadyVoice(entry.voice) || entry.voice.availability === 'installing' || voiceDownload(entry) !== undefined;

/** The picker's rows in order (voices that cannot be installed from the picker left out). Rows of the `other` section are grouped by language (its primary subtag, by `languageName`). */
export function pickerRows(
  entries: VoiceEntry[],
  context: PickerContext,
  languageName: (code: string) => string = (code) => code,
): PickerRow[] {
  const collator = new Intl.Collator('en', { sensitivity: 'base' });
  const rows = withoutDuplicates(entries.filter(isOffered), context.currentId).map((entry): PickerRow => ({
    entry,
    section: sectionOf(entry, context),
    tier: voiceTier(entry),
    licenseUrl: licenseUrlOf(entry),
    state: stateOf(entry),
    favourite: context.favourites.has(entry.voice.id),
  }));
  const foreign = (row: PickerRow): number =>
    Number(primaryOf(row.entry.voice.languageCode) !== primaryOf(context.uiLanguage));
  const among = (a: PickerRow, b: PickerRow): number =>
    foreign(a) - foreign(b) ||
    Number(a.tier === 'built-in') - Number(b.tier === 'built-in') ||
    licenseOpenness(a.entry.voice.access.license) - licenseOpenness(b.entry.voice.access.license) ||
    collator.compare(a.entry.voice.name, b.entry.voice.name);
  const language = (row: PickerRow): string => languageName(primaryOf(row.entry.voice.languageCode));
  return rows.sort(
    (a, b) =>
      SECTION_ORDER.indexOf(a.section) - SECTION_ORDER.indexOf(b.section) ||
      (a.section === 'other' ? collator.compare(language(a), language(b)) : 0) ||
      among(a, b),
  );
}
