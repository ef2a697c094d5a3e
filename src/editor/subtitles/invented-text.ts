/**
 * Quick fixes that remove or re-transcribe a cue the recognizer may have invented (invented-text-diagnostics.ts
 * points at them), and "Check Subtitles for Invented Text", which finds the speech in the media so that text
 * over silence is pointed at too.
 */
import * as vscode from 'vscode';
import { checkInventedText, removeCueEdit, type InventedTextProblem } from '../../subtitles/invented-text';
import { reportError } from '../log';
import type { Services } from '../services';
import { activeSubtitle } from './active-subtitle';
import { SUBTITLE_SELECTOR, subtitleFormatOf } from './diagnostics';
import { INVENTED_TEXT_SOURCE, rememberSpeech } from './invented-text-diagnostics';
import { speechOfSubtitleMedia } from './media-speech';
import { RETRANSCRIBE_CUES_COMMAND } from './retranscribe-cues';

export const CHECK_INVENTED_TEXT_COMMAND = 'speechStudio.checkInventedText';

/** What the check command found, for callers and tests. */
export interface InventedTextCheck {
  media: vscode.Uri;
  problems: InventedTextProblem[];
}

export async function checkSubtitlesForInventedText(services: Services): Promise<InventedTextCheck | undefined> {
  const active = activeSubtitle('check it for invented text');
  if (!active) return undefined;
  const { document, format } = active;
  const found = await speechOfSubtitleMedia(services, document, 'Checking subtitles for invented text');
  if (!found) return undefined;
  rememberSpeech(document.uri, found.regions);
  const problems = checkInventedText(document.getText(), format, found.regions);
  const cues = new Set(problems.map((problem) => problem.cue)).size;
  const summary =
    cues === 0
      ? 'No cue looks invented: each has speech under it, and none loops, is a stock phrase or is faster than speech.'
      : `${cues} cue${cues === 1 ? '' : 's'} may have been invented by the recognizer: see the Problems panel, where each offers to remove or re-transcribe it.`;
  services.log.info(
    `Invented-text check of ${document.uri.fsPath} with ${found.media.fsPath}: ${problems.length} flag(s) on ${cues} cue(s)`,
  );
  void vscode.window.showInformationMessage(summary);
  return { media: found.media, problems };
}

class InventedTextFixes implements vscode.CodeActionProvider {
  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const format = subtitleFormatOf(document);
    if (!format) return [];
    return context.diagnostics
      .filter((diagnostic) => diagnostic.source === INVENTED_TEXT_SOURCE)
      .flatMap((diagnostic) => {
        const cue = Number(/^Cue (\d+)/.exec(diagnostic.message)?.[1]);
        const removal = Number.isInteger(cue) ? removeCueEdit(document.getText(), format, cue) : undefined;
        if (!removal) return [];
        const remove = new vscode.CodeAction(`Remove cue ${cue}`, vscode.CodeActionKind.QuickFix);
        remove.diagnostics = [diagnostic];
        remove.edit = new vscode.WorkspaceEdit();
        remove.edit.delete(
          document.uri,
          new vscode.Range(document.positionAt(removal.start), document.positionAt(removal.end)),
        );
        const retranscribe = new vscode.CodeAction(`Re-transcribe cue ${cue}`, vscode.CodeActionKind.QuickFix);
        retranscribe.diagnostics = [diagnostic];
        retranscribe.command = {
          command: RETRANSCRIBE_CUES_COMMAND,
          title: `Re-transcribe cue ${cue}`,
          arguments: [{ cues: [cue] }],
        };
        return [remove, retranscribe];
      });
  }
}

export function registerInventedText(services: Services): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.languages.registerCodeActionsProvider(SUBTITLE_SELECTOR, new InventedTextFixes(), {
      providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
    }),
    vscode.commands.registerCommand(CHECK_INVENTED_TEXT_COMMAND, async () => {
      try {
        return await checkSubtitlesForInventedText(services);
      } catch (error) {
        reportError(services.log, 'Checking the subtitles for invented text failed', error);
        return undefined;
      }
    }),
  );
}
