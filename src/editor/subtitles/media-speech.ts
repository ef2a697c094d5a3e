/**
 * The speech in a subtitle file's media (Silero VAD in the engine, cached by the job core), found under a
 * cancellable progress notification: what Snap to Speech and the invented-text check both start from.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { findSpeechRegions } from '../../jobs/speech-regions';
import type { SpeechSpan } from '../../subtitles/hallucination-flags';
import { describePhase } from '../job-progress';
import type { Services } from '../services';
import { mediaForSubtitle } from './cue-media';
import { requireVadModel } from './vad-model';

/** The media and its speech; undefined when the user cancelled or there is no media or VAD model. */
export async function speechOfSubtitleMedia(
  services: Services,
  document: vscode.TextDocument,
  purpose: string,
): Promise<{ media: vscode.Uri; regions: SpeechSpan[] } | undefined> {
  const media = await mediaForSubtitle(services.context, document.uri);
  if (!media) return undefined;
  if (media.scheme !== 'file')
    throw new Error(`Only media files on this machine can be analysed, not ${media.toString()}.`);
  const vadModel = await requireVadModel(services, purpose);
  if (!vadModel) return undefined;
  const regions = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Finding the speech in ${path.basename(media.fsPath)}`,
      cancellable: true,
    },
    async (progress, token) => {
      const cancel = new AbortController();
      const cancelling = token.onCancellationRequested(() => cancel.abort());
      let shown = 0;
      try {
        const server = await services.controller.ready();
        return await findSpeechRegions(server.engine, services.controller.dataDir, media.fsPath, vadModel, {
          signal: cancel.signal,
          onProgress: (phase, percent) => {
            progress.report({
              increment: Math.max(0, percent - shown),
              message: `${describePhase(phase)} (${Math.floor(percent)}%)`,
            });
            shown = Math.max(shown, percent);
          },
        });
      } catch (error) {
        if (cancel.signal.aborted) return undefined;
        throw error;
      } finally {
        cancelling.dispose();
      }
    },
  );
  return regions ? { media, regions: regions.regions } : undefined;
}
