/**
 * Which voice speaks each speaker of a dub: a cloned voice when one can be made from the speaker's own clean
 * segments (the seam below, for ZipVoice), else a library voice of the target language by the speaker's
 * gender, each speaker a different voice while the library has enough, best voices first.
 */
import type { TtsVoiceRef } from './voice-ref';

/** A speaker's voice, as far as the original audio tells: its median pitch decides. */
export type SpeakerGender = 'female' | 'male' | 'unknown';

/** The library's ready voices of the target language, best first, by the gender the library gives them. */
export interface DubVoiceChoices {
  female: TtsVoiceRef[];
  male: TtsVoiceRef[];
  /** Voices the library names no gender for (espeak-ng's). */
  other: TtsVoiceRef[];
}

export interface SpeakerToVoice {
  label: string;
  gender: SpeakerGender;
}

export interface ChosenVoice {
  ref: TtsVoiceRef;
  source: 'library' | 'cloned';
}

/**
 * The seam where a speaker's own voice would be cloned (ZipVoice, from their clean segments of the original
 * audio) when a cloning model is installed. Cloning is not part of the dub yet: every speaker gets a library
 * voice, so this answers undefined.
 */
export type CloneSpeakerVoice = (label: string) => TtsVoiceRef | undefined;
export const NO_CLONING: CloneSpeakerVoice = () => undefined;

/** The library voices in the order a speaker of this gender takes them: their own gender first, then the rest. */
function preference(choices: DubVoiceChoices, gender: SpeakerGender): TtsVoiceRef[] {
  if (gender === 'female') return [...choices.female, ...choices.other, ...choices.male];
  if (gender === 'male') return [...choices.male, ...choices.other, ...choices.female];
  return [...choices.other, ...choices.female, ...choices.male];
}

const keyOf = (ref: TtsVoiceRef): string => `${ref.engine}:${ref.engineVoiceId}`;

/**
 * A voice for every speaker, in the order given (first appearance): the first unused voice of their
 * preference, or, once every voice is taken, the voices again in turn. Throws when there is no voice at all.
 *
 * @example chooseSpeakerVoices([{ label: 'Speaker 1', gender: 'male' }], { female: [], male: [v], other: [] }) // Map { 'Speaker 1' → v }
 */
export function chooseSpeakerVoices(
  speakers: readonly SpeakerToVoice[],
  choices: DubVoiceChoices,
  clone: CloneSpeakerVoice = NO_CLONING,
): Map<string, ChosenVoice> {
  const chosen = new Map<string, ChosenVoice>();
  const used = new Map<string, number>();
  for (const speaker of speakers) {
    const cloned = clone(speaker.label);
    if (cloned) {
      chosen.set(speaker.label, { ref: cloned, source: 'cloned' });
      continue;
    }
    const candidates = preference(choices, speaker.gender);
    if (candidates.length === 0) throw new TypeError('Expected at least one voice to dub with, got none');
    // The least used voice, the preferred one among equals: a new voice while there is one.
    let pick = candidates[0];
    for (const candidate of candidates) {
      if ((used.get(keyOf(candidate)) ?? 0) < (used.get(keyOf(pick)) ?? 0)) pick = candidate;
    }
    used.set(keyOf(pick), (used.get(keyOf(pick)) ?? 0) + 1);
    chosen.set(speaker.label, { ref: pick, source: 'library' });
  }
  return chosen;
}
