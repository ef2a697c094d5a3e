/**
 * Admission of an SSML text, the one rule every door that takes SSML calls (the OpenAI door, MCP, the editor,
 * the audiobook): the markup must read (422 naming its line and column), every `<voice name>` must be a voice
 * of the library that is ready (422 / 409 VOICE_NOT_READY), and every `<audio src>` a file inside the allowed
 * folders (422 naming the element). The Local API's POST /tts/jobs never takes SSML: its text is plain text.
 */
import path from 'node:path';
import { stat } from 'node:fs/promises';
import { ApiError, invalidRequest } from '../contract/errors';
import type { SsmlTaskMarkup } from '../engine-api/protocol';
import { confineInput, PathRefusedError, type AllowedFolders } from '../local-files/confined-paths';
import { parseSsml, SsmlError } from '../text/ssml/parse-ssml';
import { spokenText, type SsmlPlan } from '../text/ssml/ssml-plan';
import { hasSomethingToSpeak } from '../text/speakable';
import { MAX_NARRATION_HOURS, MAX_NARRATION_SECONDS } from '../subtitles/timeline-limit';
import { plannedExtraSeconds } from './ssml-duration';
import type { VoiceLibrary } from '../voices/library';
import { isReadyVoice } from '../voices/voice-entry';
import { findVoice } from '../voices/voice-map';

export { looksLikeSsml } from '../text/ssml/ssml-plan';

/** The folder of the data directory that `<audio src>` may name files in, beside the configured folders. */
export const SSML_AUDIO_FOLDER = 'audio';

/** Where a server's SSML may take `<audio>` files from: the configured folders, then `<data dir>/audio`. */
export function ssmlAudioFolders(deps: { dataDir: string; allowedFolders?(): readonly string[] }): string[] {
  return [...(deps.allowedFolders?.() ?? []), path.join(deps.dataDir, SSML_AUDIO_FOLDER)];
}

/** The plan of an SSML text, or a 422 `field: SSML line L, column C: …`. */
export function readSsml(text: string, field = 'text', language = 'en'): SsmlPlan {
  try {
    return parseSsml(text, language);
  } catch (error) {
    if (error instanceof SsmlError) throw invalidRequest(`${field}: ${error.message}`);
    throw error;
  }
}

/**
 * Checks an SSML text and resolves what the engine needs for it. `audioFolders` are the folders `<audio src>`
 * may name files in (a relative src is looked up in each, in order); none means audio is refused. A whole
 * request must give a voice something to say, as plain text must (src/jobs/admission.ts); a `passage` of a
 * longer reading (a book's block, a Read Aloud part) may be a pause alone. Pauses and `<audio>` files
 * together may last at most the narration limit of MAX_NARRATION_HOURS hours.
 */
export async function admitSsml(
  text: string,
  voices: Pick<VoiceLibrary, 'get' | 'list'>,
  audioFolders: AllowedFolders,
  field = 'text',
  { passage = false }: { passage?: boolean } = {},
): Promise<SsmlTaskMarkup> {
  const plan = readSsml(text, field);
  if (!passage && !plan.steps.some((step) => step.kind === 'audio') && !hasSomethingToSpeak(spokenText(plan)))
    throw invalidRequest(
      `${field}: has nothing to speak: the SSML holds no letter, digit or sign a voice reads, only markup, pauses, punctuation or emoji`,
    );
  const markup: SsmlTaskMarkup = { voices: {}, audio: {} };
  for (const name of plan.voices) {
    const match = findVoice(voices as VoiceLibrary, name);
    if (!match.found)
      throw invalidRequest(
        `${field}: SSML <voice name="${name.slice(0, 100)}">: no such voice; use a voice id or exact name from GET /voices`,
      );
    if (!isReadyVoice(match.entry.voice)) {
      throw new ApiError(
        'VOICE_NOT_READY',
        `${field}: SSML <voice name="${name.slice(0, 100)}">: the voice ${match.entry.voice.name} is ${match.entry.voice.availability.replace('_', ' ')}`,
      );
    }
    markup.voices[name] = match.entry.ref;
  }
  for (const step of plan.steps) {
    if (step.kind !== 'audio' || markup.audio[step.src]) continue;
    const where = `${field}: SSML line ${step.line}, column ${step.column}: <audio src="${step.src.slice(0, 200)}">`;
    if (audioFolders.length === 0) throw invalidRequest(`${where}: no folder is open to audio files here`);
    const candidate = path.isAbsolute(step.src)
      ? step.src
      : await firstExisting(audioFolders.map((folder) => path.resolve(folder, step.src)));
    // The folders are the server's, not the client's: an error names what the client gave, never them.
    if (!candidate)
      throw invalidRequest(
        `${where}: no such file in the folders open to audio (the data directory's audio folder and the configured folders)`,
      );
    try {
      markup.audio[step.src] = (await confineInput(candidate, audioFolders, 'src')).path;
    } catch (error) {
      if (error instanceof PathRefusedError) throw invalidRequest(`${where}: ${error.publicReason}`);
      throw error;
    }
  }
  const extra = await plannedExtraSeconds(plan, markup.audio);
  if (extra > MAX_NARRATION_SECONDS)
    throw invalidRequest(
      `${field}: SSML asks for ${(extra / 3600).toFixed(1)} hours of pauses and <audio> files; a narration may last at most ${MAX_NARRATION_HOURS} hours`,
    );
  return markup;
}

async function firstExisting(candidates: string[]): Promise<string | undefined> {
  for (const candidate of candidates) {
    if (
      await stat(candidate).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  return undefined;
}
