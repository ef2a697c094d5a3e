/**
 * "Speech Studio: Snap Subtitle Timing to Speech": finds the speech in the subtitle file's media (Silero
 * VAD in the engine, cached) and moves each cue's start and end onto the nearest speech onset and offset
 * within a window, as one undoable edit, then says how many cues moved and by how much.
 */
import * as vscode from 'vscode';
import { DEFAULT_SNAP_WINDOW_SECONDS, snapToSpeech, type SnapReport } from '../../subtitles/snap';
import { reportError } from '../log';
import type { Services } from '../services';
import { activeSubtitle } from './active-subtitle';
import { speechOfSubtitleMedia } from './media-speech';
import { toWorkspaceEdit } from './quick-fixes';
import { readSubtitleCheckSetting, SUBTITLE_SETTINGS } from './style-setting';

export const SNAP_TO_SPEECH_COMMAND = 'speechStudio.snapSubtitlesToSpeech';

/** What the command did, for callers and tests; undefined when it stopped before snapping. */
export interface SnapToSpeechResult extends SnapReport {
  media: vscode.Uri;
  /** Whether the edit was applied (false when nothing moved). */
  applied: boolean;
}

/** `speechStudio.subtitles.snapWindowSeconds` for the file, within 0–5 s. */
function snapWindow(uri: vscode.Uri): number {
  const value = vscode.workspace
    .getConfiguration(SUBTITLE_SETTINGS, uri)
    .get<number>('snapWindowSeconds', DEFAULT_SNAP_WINDOW_SECONDS);
  return typeof value === 'number' && value >= 0 && value <= 5 ? value : DEFAULT_SNAP_WINDOW_SECONDS;
}

export const describeSnap = (report: SnapReport): string =>
  (report.moved === 0
    ? `Moved 0 of ${report.total} cues: every boundary is on speech or has no speech edge in reach.`
    : `Moved ${report.moved} of ${report.total} cues (mean ${report.meanShiftMs} ms, max ${report.maxShiftMs} ms).`) +
  (report.heldBack > 0
    ? ` Left ${report.heldBack} boundar${report.heldBack === 1 ? 'y' : 'ies'} where ${report.heldBack === 1 ? 'it was' : 'they were'}: moving ${report.heldBack === 1 ? 'it' : 'them'} would have created a problem (overlap, gap, too short or too fast).`
    : '');

export async function snapSubtitlesToSpeech(services: Services): Promise<SnapToSpeechResult | undefined> {
  const active = activeSubtitle('snap its timing to speech');
  if (!active) return undefined;
  const { document, format } = active;
  const found = await speechOfSubtitleMedia(services, document, 'Snapping subtitle timing to speech');
  if (!found) return undefined;
  const { media, regions } = found;

  // The text as it is now: the user may have typed while the speech was being found.
  const { edits, report } = snapToSpeech(
    document.getText(),
    format,
    regions,
    readSubtitleCheckSetting(document.uri).style,
    snapWindow(document.uri),
  );
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
