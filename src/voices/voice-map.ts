/**
 * Which of our voices answers to an OpenAI voice name. Each name has a list of candidates (voice names of
 * the library, best first) and the first ready one speaks; the server's `openAiVoices` (its option over
 * `SPEECH_STUDIO_OPENAI_VOICES`, read in src/config/server-environment.ts) overrides any of them. Our own
 * voice ids and exact voice names work as `voice` too.
 */
import type { VoiceLibrary, VoiceEntry } from './library';
import { isUuid } from '../contract/validation';

const SLT = 'English (America) – Flite SLT';
const RMS = 'English (America) – Flite RMS';
const KAL = 'English (America) – Flite KAL';
const AWB = 'English (Scotland) – Flite AWB';
const ESPEAK_US = 'English (America)';

/**
 * The built-in mapping: OpenAI's female voices to Flite SLT, the male ones to RMS, KAL or AWB (fable and
 * ballad, OpenAI's British-sounding voices, to the Scottish AWB); espeak-ng's American English last.
 */
export const DEFAULT_OPENAI_VOICES: Readonly<Record<string, readonly string[]>> = {
  alloy: [SLT, ESPEAK_US],
  ash: [RMS, ESPEAK_US],
  ballad: [AWB, ESPEAK_US],
  coral: [SLT, ESPEAK_US],
  echo: [KAL, ESPEAK_US],
  fable: [AWB, ESPEAK_US],
  nova: [SLT, ESPEAK_US],
  onyx: [RMS, ESPEAK_US],
  sage: [SLT, ESPEAK_US],
  shimmer: [SLT, ESPEAK_US],
  verse: [KAL, ESPEAK_US],
  marin: [SLT, ESPEAK_US],
  cedar: [RMS, ESPEAK_US],
};

export type VoiceMatch = { found: true; entry: VoiceEntry; via: 'id' | 'name' | 'openai' } | { found: false };

/** Finds a voice by id, else by exact name (case-insensitive); ready or not. */
export function findVoice(voices: VoiceLibrary, wanted: string): VoiceMatch {
  if (isUuid(wanted)) {
    const entry = voices.get(wanted);
    return entry ? { found: true, entry, via: 'id' } : { found: false };
  }
  const name = wanted.trim().toLowerCase();
  const page = voices.list({
    search: wanted.slice(0, 200),
    scope: 'all',
    sortBy: 'name',
    sortDirection: 'asc',
    page: 1,
    limit: 100,
  });
  const item = page.items.find((voice) => voice.name.toLowerCase() === name);
  const entry = item ? voices.get(item.id) : undefined;
  return entry ? { found: true, entry, via: 'name' } : { found: false };
}

/**
 * The voice for a request's `voice`: an override, our id or exact name, else the first ready candidate of
 * an OpenAI name. `engine` (from `model`) keeps the choice to one engine's voices.
 */
export function resolveVoice(
  voices: VoiceLibrary,
  wanted: string,
  overrides: Record<string, string>,
  engine?: string,
): VoiceMatch {
  const key = wanted.trim().toLowerCase();
  const override = overrides[key];
  if (override) {
    const match = findVoice(voices, override);
    if (match.found) return { ...match, via: 'openai' };
  }
  const direct = findVoice(voices, wanted);
  if (direct.found) return direct;
  const candidates = DEFAULT_OPENAI_VOICES[key];
  if (!candidates) return { found: false };
  const ready = candidates
    .map((name) => findVoice(voices, name))
    .filter(
      (match): match is Extract<VoiceMatch, { found: true }> =>
        match.found && match.entry.voice.availability === 'ready',
    );
  const fitting = engine
    ? (ready.find((match) => match.entry.engine === engine) ?? firstOfEngine(voices, engine))
    : ready[0];
  return fitting ? { found: true, entry: fitting.entry, via: 'openai' } : { found: false };
}

/** The first ready English voice of an engine, for an OpenAI voice name with an engine as `model`. */
function firstOfEngine(voices: VoiceLibrary, engine: string): Extract<VoiceMatch, { found: true }> | undefined {
  const page = voices.list({
    languageCode: 'en',
    scope: 'all',
    sortBy: 'name',
    sortDirection: 'asc',
    page: 1,
    limit: 100,
  });
  for (const item of page.items) {
    const entry = voices.get(item.id);
    if (entry && entry.engine === engine && entry.voice.availability === 'ready')
      return { found: true, entry, via: 'openai' };
  }
  return undefined;
}
