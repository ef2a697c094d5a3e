/**
 * "Speech Studio: Snap Subtitle Timing to Speech": finds the speech in the subtitle file's media (Silero
 * VAD in the engine, cached) and moves each cue's start and end onto the nearest speech onset and offset
 * within a window, as one undoable edit, then says how many cues moved and by how much.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { findSpeechRegions } from '../../jobs/speech-regions';
import { DEFAULT_SNAP_WINDOW_SECONDS, snapToSpeech, type SnapReport } from '../../subtitles/snap';
import { describePhase } from '../job-progress';
import { reportError } from '../log';
import type { Services } from '../services';
import { activeSubtitle } from './active-subtitle';
import { mediaForSubtitle } from './cue-media';
import { toWorkspaceEdit } from './quick-fixes';
import { readSubtitleCheckSetting, SUBTITLE_SETTINGS } from './style-setting';
import { requireVadModel } from './vad-model';

export const SNAP_TO_SPEECH_COMMAND = 'speechStudio.snapSubtitlesToSpeech';

/** What the command did, for callers and tests; undefined when it stopped before snapping. */
export interface SnapToSpeechResult extends SnapReport {
  media: vscode.Uri;
  /** Whether the edit was applied (false when nothing moved). */
  applied: boolean;
}

/** `speechStudio.subtitles.snapWindowSeconds` for the file, within 0–5 s. */
function snapWindow(uri: vscode.Uri): number {
  const value = vscode.workspace.getConfiguration(SUBTITLE_SETTINGS, uri).get<number>('snapWindowSeconds', DEFAULT_SNAP_WINDOW_SECONDS);
  return typeof value === 'number' && value >= 0 && value <= 5 ? value : DEFAULT_SNAP_WINDOW_SECONDS;
}

export const describeSnap = (report: SnapReport): string =>
  report.moved === 0
    ? `Moved 0 of ${report.total} cues: every boundary is on speech or has no speech edge in reach.`
    : `Moved ${report.moved} of ${report.total} cues (mean ${report.meanShiftMs} ms, max ${report.maxShiftMs} ms).`;

export async function snapSubtitlesToSpeech(services: Services): Promise<SnapToSpeechResult | undefined> {
  const active = activeSubtitle('snap its timing to speech');
  if (!active) return undefined;
  const { document, format } = active;
  const media = await mediaForSubtitle(services.context, document.uri);
  if (!media) return undefined;
  if (media.scheme !== 'file') throw new Error(`Only media files on this machine can be analysed, not ${media.toString()}.`);
  const vadModel = await requireVadModel(services, 'Snapping subtitle timing to speech');
  if (!vadModel) return undefined;

  const regions = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Finding the speech in ${path.basename(media.fsPath)}`, cancellable: true },
    async (progress, token) => {
      const cancel = new AbortController();
      const cancelling = token.onCancellationRequested(() => cancel.abort());
      let shown = 0;
      try {
        const server = await services.controller.ready();
        return await findSpeechRegions(server.engine, services.controller.dataDir, media.fsPath, vadModel, {
          signal: cancel.signal,
          onProgress: (phase, percent) => {
            progress.report({ increment: Math.max(0, percent - shown), message: `${describePhase(phase)} (${Math.floor(percent)}%)` });
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
  if (!regions) return undefined;

  // The text as it is now: the user may have typed while the speech was being found.
  const { edits, report } = snapToSpeech(document.getText(), format, regions.regions, readSubtitleCheckSetting(document.uri).style, snapWindow(document.uri));
  const applied = edits.length > 0 && (await vscode.workspace.applyEdit(toWorkspaceEdit(document, edits)));
  services.log.info(`Snap to speech on ${document.uri.fsPath} with ${media.fsPath}: ${describeSnap(report)}`);
  void vscode.window.showInformationMessage(describeSnap(report));
  return { ...report, media, applied };
}

export function registerSnapToSpeech(services: Services): vscode.Disposable {
  return vscode.commands.registerCommand(SNAP_TO_SPEECH_COMMAND, async () => {
    try {
      return await snapSubtitlesToSpeech(services);
    } catch (error) {
      reportError(services.log, 'Snapping to speech failed', error);
      return undefined;
    }
  });
}
