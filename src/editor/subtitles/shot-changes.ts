/**
 * "Check Subtitles Against Shot Changes": finds the shot changes of the subtitle file's video (ffmpeg's scene
 * score in the engine, cached by the job core) so cues near a cut are pointed at (shot-change-diagnostics.ts),
 * and the quick fix that snaps such a cue to its cut.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { findShotChanges, type FoundShotChanges } from '../../jobs/shot-changes';
import { snapToShotChange, type ShotChangeProblem } from '../../subtitles/shot-changes';
import { describePhase } from '../job-progress';
import { reportError } from '../log';
import type { Services } from '../services';
import { activeSubtitle } from './active-subtitle';
import { mediaForSubtitle } from './cue-media';
import { subtitleFormatOf } from './diagnostics';
import { toWorkspaceEdit } from './quick-fixes';
import { rememberShots, SHOT_CHANGE_SOURCE, shotChangeProblems } from './shot-change-diagnostics';
import { readSubtitleCheckSetting } from './style-setting';

export const CHECK_SHOT_CHANGES_COMMAND = 'speechStudio.checkShotChanges';

/** What the check command found, for callers and tests. */
export interface ShotChangeCheck {
  media: vscode.Uri;
  changes: number[];
  framesPerSecond: number;
  problems: ShotChangeProblem[];
}

/** The shot changes of `media` at the style's threshold, under a cancellable progress notification. */
export async function shotChangesOfMedia(
  services: Services,
  subtitle: vscode.Uri,
  media: vscode.Uri,
  signal?: AbortSignal,
): Promise<FoundShotChanges | undefined> {
  if (media.scheme !== 'file')
    throw new Error(`Only media files on this machine can be analysed, not ${media.toString()}.`);
  const { style } = readSubtitleCheckSetting(subtitle);
  const server = await services.controller.ready();
  if (signal)
    return findShotChanges(server.engine, services.controller.dataDir, media.fsPath, style.shotChangeThreshold, {
      signal,
    });
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Finding the shot changes in ${path.basename(media.fsPath)}`,
      cancellable: true,
    },
    async (progress, token) => {
      const cancel = new AbortController();
      const cancelling = token.onCancellationRequested(() => cancel.abort());
      try {
        return await findShotChanges(
          server.engine,
          services.controller.dataDir,
          media.fsPath,
          style.shotChangeThreshold,
          {
            signal: cancel.signal,
            onProgress: (phase, percent) =>
              progress.report({ message: `${describePhase(phase)} (${Math.floor(percent)}%)` }),
          },
        );
      } catch (error) {
        if (cancel.signal.aborted) return undefined;
        throw error;
      } finally {
        cancelling.dispose();
      }
    },
  );
}

export async function checkSubtitlesAgainstShotChanges(services: Services): Promise<ShotChangeCheck | undefined> {
  const active = activeSubtitle('check it against the shot changes of its video');
  if (!active) return undefined;
  const { document, format } = active;
  const media = await mediaForSubtitle(services.context, document.uri);
  if (!media) return undefined;
  const found = await shotChangesOfMedia(services, document.uri, media);
  if (!found) return undefined;
  rememberShots(document.uri, found);
  const problems = shotChangeProblems(document, format, readSubtitleCheckSetting(document.uri).style);
  const cues = new Set(problems.map((problem) => problem.cue)).size;
  const changes = `${found.changes.length} shot change${found.changes.length === 1 ? '' : 's'}`;
  services.log.info(
    `Shot-change check of ${document.uri.fsPath} with ${media.fsPath}: ${changes}, ${problems.length} problem(s) on ${cues} cue(s)`,
  );
  void vscode.window.showInformationMessage(
    cues === 0
      ? `${changes} in ${path.basename(media.fsPath)}; no cue starts or ends near one without being on it.`
      : `${changes} in ${path.basename(media.fsPath)}; ${cues} cue${cues === 1 ? '' : 's'} start or end near one: see the Problems panel, where each offers to snap to it.`,
  );
  return { media, changes: found.changes, framesPerSecond: found.framesPerSecond, problems };
}

const TITLES = {
  start: (problem: ShotChangeProblem) =>
    `Start cue ${problem.cue} on the shot change at ${problem.change.toFixed(3)} s`,
  end: (problem: ShotChangeProblem) =>
    `End cue ${problem.cue} just before the shot change at ${problem.change.toFixed(3)} s`,
};

class ShotChangeFixes implements vscode.CodeActionProvider {
  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const format = subtitleFormatOf(document);
    const ours = context.diagnostics.filter((diagnostic) => diagnostic.source === SHOT_CHANGE_SOURCE);
    if (!format || ours.length === 0) return [];
    const problems = shotChangeProblems(document, format, readSubtitleCheckSetting(document.uri).style);
    return ours.flatMap((diagnostic) => {
      const problem = problems.find(
        (p) => p.line - 1 === diagnostic.range.start.line && `shot-change-${p.edge}` === diagnostic.code,
      );
      const edits = problem ? snapToShotChange(document.getText(), format, problem) : [];
      if (!problem || edits.length === 0) return [];
      const action = new vscode.CodeAction(TITLES[problem.edge](problem), vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diagnostic];
      action.isPreferred = true;
      action.edit = toWorkspaceEdit(document, edits);
      return [action];
    });
  }
}

export function registerShotChanges(services: Services): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.languages.registerCodeActionsProvider(
      [{ pattern: '**/*.srt' }, { pattern: '**/*.vtt' }],
      new ShotChangeFixes(),
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
    vscode.commands.registerCommand(CHECK_SHOT_CHANGES_COMMAND, async () => {
      try {
        return await checkSubtitlesAgainstShotChanges(services);
      } catch (error) {
        reportError(services.log, 'Checking the subtitles against shot changes failed', error);
        return undefined;
      }
    }),
  );
}
