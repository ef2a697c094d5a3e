/**
 * Quick fixes on the subtitle check's diagnostics (diagnostics.ts): each problem offers every way to fix it
 * (src/subtitles/safe-fixes.ts), titled with what it changes (before → after); one that would create a new
 * problem says which, and the preferred fix is one that creates none. Each kind also offers "… in this
 * file", which opens Fix Common Problems' preview for that kind.
 */
import * as vscode from 'vscode';
import type { ProblemKind } from '../../subtitles/check';
import { cueAtLine, type TextEdit } from '../../subtitles/edits';
import { FIXES_FOR, fixVariants, isSafe, type FixVariant } from '../../subtitles/safe-fixes';
import { SUBTITLE_CHECK_SOURCE, SUBTITLE_SELECTOR, subtitleFormatOf } from './diagnostics';
import { readSubtitleCheckSetting } from './style-setting';

export const FIX_COMMON_PROBLEMS_COMMAND = 'speechStudio.fixCommonProblems';

const FIX_ALL_NAMES: Partial<Record<ProblemKind, string>> = {
  'line-too-long': 'Fix all lines too long',
  'too-many-lines': 'Fix all cues with too many lines',
  'too-short': 'Fix all cues too short',
  'too-long': 'Fix all cues too long',
  'reading-speed': 'Fix all cues read too fast',
  overlap: 'Fix all overlaps',
  'gap-too-small': 'Fix all gaps too small',
};

export function toWorkspaceEdit(document: vscode.TextDocument, edits: readonly TextEdit[]): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const change of edits)
    edit.replace(
      document.uri,
      new vscode.Range(document.positionAt(change.start), document.positionAt(change.end)),
      change.text,
    );
  return edit;
}

/** The title a user reads before choosing: the fix, what it changes, and what it would break. */
export function variantTitle(variant: FixVariant): string {
  const warning = !variant.solves
    ? ' — does not remove the problem'
    : variant.created.length
      ? ` — creates: ${variant.created.map((p) => p.message).join('; ')}`
      : '';
  return `${variant.title} (${variant.change})${warning}`;
}

export class SubtitleQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const format = subtitleFormatOf(document);
    if (!format) return [];
    const ours = context.diagnostics.filter(
      (d) => d.source === SUBTITLE_CHECK_SOURCE && FIXES_FOR[d.code as ProblemKind],
    );
    if (ours.length === 0) return [];
    // document.getText() has no byte-order mark, so the edits' offsets are the document's.
    const source = document.getText();
    const { style } = readSubtitleCheckSetting(document.uri);
    const actions: vscode.CodeAction[] = [];
    const kinds = new Set<ProblemKind>();
    for (const diagnostic of ours) {
      const kind = diagnostic.code as ProblemKind;
      kinds.add(kind);
      const cue = cueAtLine(source, format, diagnostic.range.start.line + 1);
      if (cue === undefined) continue;
      fixVariants(source, format, style, { kind, cue }).forEach((variant, i) => {
        const action = new vscode.CodeAction(variantTitle(variant), vscode.CodeActionKind.QuickFix);
        action.edit = toWorkspaceEdit(document, variant.edits);
        action.diagnostics = [diagnostic];
        action.isPreferred = i === 0 && isSafe(variant);
        actions.push(action);
      });
    }
    for (const kind of kinds) {
      const action = new vscode.CodeAction(`${FIX_ALL_NAMES[kind]} in this file…`, vscode.CodeActionKind.QuickFix);
      action.command = { command: FIX_COMMON_PROBLEMS_COMMAND, title: action.title, arguments: [document.uri, [kind]] };
      actions.push(action);
    }
    return actions;
  }
}

export function registerSubtitleQuickFixes(): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider(SUBTITLE_SELECTOR, new SubtitleQuickFixes(), {
    providedCodeActionKinds: SubtitleQuickFixes.kinds,
  });
}
