/**
 * Whether a text gives a voice anything to say: a letter, a digit, or a currency or math sign (`$`, `+`,
 * which voices read out). Punctuation alone (`...`), emoji, spaces, zero-width and control characters
 * give no speech, and a job made of them would end in an empty or broken file, so admission refuses them.
 */
const SPEAKABLE = /[\p{L}\p{N}\p{Sc}\p{Sm}]/u;

export const hasSomethingToSpeak = (text: string): boolean => SPEAKABLE.test(text);
