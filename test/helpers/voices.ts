import { request } from './server';

/** The id of espeak-ng's American English voice, looked up through the API as a client would. */
export async function englishVoiceId(base: string, headers?: Record<string, string>): Promise<string> {
  const page = (await request(`${base}/voices?languageCode=en-US&limit=100`, { headers })).json();
  const voice = page.items.find((v: { name: string }) => v.name === 'English (America)') ?? page.items[0];
  if (!voice) throw new Error(`No en-US voice in ${JSON.stringify(page).slice(0, 300)}`);
  return voice.id;
}

/** Text long enough that a job is still synthesizing when a test acts on it (tens of seconds of speech). */
export const LONG_TEXT = Array.from(
  { length: 400 },
  (_, i) => `This is sentence number ${i + 1} of a long narration.`,
).join(' ');
