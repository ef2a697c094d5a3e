/**
 * The first Read Aloud without a neural voice offers, once, to install the recommended one for the editor's
 * language (src/voices/best-voice.ts). The reading does not wait for the answer; Install uses the voice
 * picker's in-place install, and the voice becomes the default for the next reading.
 */
import * as vscode from 'vscode';
import { megabytes } from '../../util/byte-size';
import { isNeuralVoice, recommendedVoice } from '../../voices/best-voice';
import { voiceDownload } from '../../voices/voice-download';
import { isReadyVoice, type VoiceEntry } from '../../voices/voice-entry';
import { reportError } from '../log';
import type { Services } from '../services';
import { installVoice, makeDefaultVoice } from '../voice-actions';

/** globalState key: set when the offer was made, whatever the answer. */
export const NEURAL_VOICE_OFFERED = 'speechStudio.neuralVoiceOffered';

export type OfferOutcome = 'installed' | 'declined' | 'not-offered';

/** The voice to offer now, if this is the moment: never asked, no neural voice ready, one to recommend. */
export function voiceToOffer(services: Services, language: string): VoiceEntry | undefined {
  if (services.context.globalState.get<boolean>(NEURAL_VOICE_OFFERED)) return undefined;
  const entries = services.voices.entries();
  if (entries.some((entry) => isNeuralVoice(entry) && isReadyVoice(entry.voice))) return undefined;
  return recommendedVoice(entries, language, (entry) => voiceDownload(entry)?.bytes ?? null);
}

/** Makes the offer if it is due; resolves when it was answered (and the voice installed) or not made. */
export async function offerNeuralVoice(services: Services): Promise<OfferOutcome> {
  const voice = voiceToOffer(services, vscode.env.language);
  if (!voice) return 'not-offered';
  await services.context.globalState.update(NEURAL_VOICE_OFFERED, true);
  const size = megabytes(voiceDownload(voice)?.bytes ?? null);
  const answer = await vscode.window.showInformationMessage(
    `Install ${voice.voice.name} (${size}) for natural reading?`,
    'Install',
    'Not now',
  );
  if (answer !== 'Install') return 'declined';
  try {
    const installed = await installVoice(services, voice);
    if (!installed) return 'declined';
    await makeDefaultVoice(services, installed);
    return 'installed';
  } catch (error) {
    reportError(services.log, `Installing ${voice.voice.name} failed`, error);
    return 'declined';
  }
}
