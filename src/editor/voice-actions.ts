/**
 * What the voice picker and the first Read Aloud do with a voice: preview it (a sample sentence in its
 * language through the editor's job path, played in the player), install it in place (Install Model's
 * download under its progress notification) and make it the default voice.
 */
import type { JobRecord } from '../jobs/types';
import { megabytes } from '../util/byte-size';
import { sampleSentence } from '../voices/sample-sentences';
import { voiceDownload } from '../voices/voice-download';
import { isReadyVoice, type VoiceEntry } from '../voices/voice-entry';
import { installModel } from './commands/install-model';
import { runWithProgress, succeeded } from './job-progress';
import type { Services } from './services';
import { updateSetting } from './settings';

/** How a not-installed voice is offered: its name, download size and licence. */
export function downloadLabel(entry: VoiceEntry): string | undefined {
  const download = voiceDownload(entry);
  return download && `${megabytes(download.bytes)} · ${entry.voice.access.license}`;
}

/** Speaks the voice's sample sentence; plays it unless `play` is false. Returns the finished job. */
export async function previewVoice(
  services: Services,
  entry: VoiceEntry,
  options: { play?: boolean } = {},
): Promise<JobRecord> {
  const text = sampleSentence(entry.voice.languageCode);
  const job = await runWithProgress(services.controller, `Previewing ${entry.voice.name}`, () =>
    services.editorJobs.createTts({ text, voiceId: entry.voice.id }),
  );
  if (succeeded(job) && options.play !== false)
    services.player.play((await services.editorJobs.outputPath(job))!, `${entry.voice.name}: ${text}`);
  return job;
}

/**
 * Installs the catalog model the voice belongs to (nothing to do when it is ready). Returns the voice as the
 * library now sees it; undefined when the download was cancelled.
 */
export async function installVoice(services: Services, entry: VoiceEntry): Promise<VoiceEntry | undefined> {
  if (!isReadyVoice(entry.voice)) {
    const download = voiceDownload(entry);
    if (!download)
      throw new Error(`${entry.voice.name} is not in the model catalog: it cannot be installed from here.`);
    if (!(await installModel(services, download.entry.id))) return undefined;
  }
  const installed = services.voices.get(entry.voice.id);
  if (!installed || !isReadyVoice(installed.voice))
    throw new Error(`${entry.voice.name} is still not ready after its install.`);
  return installed;
}

/** The voice speaks every job that names none (setting `speechStudio.tts.defaultVoice`). */
export async function makeDefaultVoice(services: Services, entry: VoiceEntry): Promise<void> {
  await updateSetting('tts.defaultVoice', entry.voice.id);
  services.log.info(`Default voice: ${entry.voice.name} (${entry.voice.id})`);
}
