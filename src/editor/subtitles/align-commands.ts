/**
 * "Align Script to Media…" (a .txt or .md script: asks for the media, writes `name.srt` beside the script)
 * and "Re-time Subtitles to Media" (the open subtitle file, any format we read: new times for its cues as one undoable edit, with a
 * report of how far they moved). Both run a forced-alignment job (src/engine/align/): no recognizer needed.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import { findVadModelIn } from '../../models/model-files';
import { alignAsJob, type AlignOutcome } from '../../jobs/align-job';
import { modelsDir } from '../../models/model-paths';
import { renderTranscript } from '../../subtitles/render';
import { retimeFromAlignment } from '../../subtitles/retime-to-alignment';
import { reportError } from '../log';
import { readSettings } from '../settings';
import type { Services } from '../services';
import { activeSubtitle } from './active-subtitle';
import { mediaForSubtitle } from './cue-media';
import { toWorkspaceEdit } from './quick-fixes';
import { readSubtitleCheckSetting } from './style-setting';

export const ALIGN_SCRIPT_COMMAND = 'speechStudio.alignScriptToMedia';
export const RETIME_SUBTITLES_COMMAND = 'speechStudio.retimeSubtitlesToMedia';

/** Options a caller (or a test) may pass instead of being asked. */
export interface AlignCommandOptions {
  media?: string;
  language?: string;
}

export interface AlignScriptResult {
  subtitles: vscode.Uri;
  matched: number;
  unmatched: Array<{ index: number; text: string }>;
}

export interface RetimeResult {
  moved: number;
  total: number;
  meanShiftMs: number;
  maxShiftMs: number;
  unmatched: Array<{ index: number; text: string }>;
  applied: boolean;
}

async function runAlignment(
  services: Services,
  media: string,
  scriptName: string,
  script: string,
  language: string | undefined,
): Promise<AlignOutcome | undefined> {
  const server = await services.controller.ready();
  const vadModelPath = await findVadModelIn(
    modelsDir(services.controller.dataDir),
    services.controller.engineConfiguration(),
  );
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Aligning ${scriptName} to ${path.basename(media)}`,
      cancellable: true,
    },
    async (_progress, token) => {
      const cancel = new AbortController();
      const cancelling = token.onCancellationRequested(() => cancel.abort());
      try {
        const preferredSttModel = readSettings().sttDefaultModel || undefined;
        return await alignAsJob(server.jobs, {
          origin: 'editor',
          media,
          scriptName,
          script,
          vadModelPath,
          signal: cancel.signal,
          ...(language ? { language } : {}),
          ...(preferredSttModel ? { preferredSttModel } : {}),
        });
      } catch (error) {
        if (cancel.signal.aborted) return undefined;
        throw error;
      } finally {
        cancelling.dispose();
      }
    },
  );
}

const notFound = (unmatched: readonly { index: number }[]): string =>
  unmatched.length === 0
    ? ''
    : ` Not found in the media: ${unmatched.length === 1 ? 'cue' : 'cues'} ${unmatched.map((cue) => cue.index).join(', ')}.`;

export async function alignScriptToMedia(
  services: Services,
  options: AlignCommandOptions = {},
): Promise<AlignScriptResult | undefined> {
  const document = vscode.window.activeTextEditor?.document;
  const extension = document ? path.extname(document.uri.fsPath).toLowerCase() : '';
  if (!document || document.uri.scheme !== 'file' || !['.txt', '.md', '.markdown'].includes(extension)) {
    void vscode.window.showWarningMessage('Open a .txt or .md script to align it to its media.');
    return undefined;
  }
  let media = options.media;
  if (!media) {
    const picked = await vscode.window.showOpenDialog({
      title: `Media for ${path.basename(document.uri.fsPath)}`,
      canSelectMany: false,
      defaultUri: vscode.Uri.file(path.dirname(document.uri.fsPath)),
      filters: { Media: ['wav', 'mp3', 'flac', 'ogg', 'm4a', 'aac', 'mp4', 'webm', 'mkv', 'mov'] },
    });
    media = picked?.[0]?.fsPath;
  }
  if (!media) return undefined;
  const outcome = await runAlignment(
    services,
    media,
    path.basename(document.uri.fsPath),
    document.getText(),
    options.language,
  );
  if (!outcome) return undefined;
  const subtitles = vscode.Uri.file(document.uri.fsPath.replace(/\.[^.\\/]+$/, '.srt'));
  await writeFile(
    subtitles.fsPath,
    renderTranscript(outcome.transcript, 'srt', readSubtitleCheckSetting(subtitles).style).body,
    'utf8',
  );
  const unmatched = outcome.result.unmatchedCues ?? [];
  const matched = outcome.result.matchedCues ?? 0;
  void vscode.window.showInformationMessage(
    `Aligned ${matched} of ${matched + unmatched.length} lines; wrote ${path.basename(subtitles.fsPath)}.${notFound(unmatched)}`,
  );
  return { subtitles, matched, unmatched };
}

export async function retimeSubtitlesToMedia(
  services: Services,
  options: AlignCommandOptions = {},
): Promise<RetimeResult | undefined> {
  const active = activeSubtitle('re-time it to its media');
  if (!active) return undefined;
  const { document, format } = active;
  const media = options.media ?? (await mediaForSubtitle(services.context, document.uri))?.fsPath;
  if (!media) return undefined;
  const source = document.getText();
  const outcome = await runAlignment(services, media, path.basename(document.uri.fsPath), source, options.language);
  if (!outcome) return undefined;
  const unmatched = outcome.result.unmatchedCues ?? [];
  const { edits, report } = retimeFromAlignment(source, format, outcome.transcript.segments, unmatched);
  // The text as it is now decides: a document edited meanwhile is not overwritten with stale times.
  if (document.getText() !== source)
    throw new Error('The subtitles changed while they were being aligned; run the command again.');
  const applied = edits.length > 0 && (await vscode.workspace.applyEdit(toWorkspaceEdit(document, edits)));
  void vscode.window.showInformationMessage(
    `Re-timed ${report.moved} of ${report.total} cues (mean ${report.meanShiftMs} ms, max ${report.maxShiftMs} ms).${notFound(unmatched)}`,
  );
  return { ...report, unmatched, applied };
}

export function registerAlignCommands(services: Services): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(ALIGN_SCRIPT_COMMAND, async (options?: AlignCommandOptions) => {
      try {
        return await alignScriptToMedia(services, options);
      } catch (error) {
        reportError(services.log, 'Aligning the script failed', error);
        return undefined;
      }
    }),
    vscode.commands.registerCommand(RETIME_SUBTITLES_COMMAND, async (options?: AlignCommandOptions) => {
      try {
        return await retimeSubtitlesToMedia(services, options);
      } catch (error) {
        reportError(services.log, 'Re-timing the subtitles failed', error);
        return undefined;
      }
    }),
  );
}
