/**
 * Quick fixes on the subtitle check's diagnostics (diagnostics.ts): each problem offers the edits of
 * src/subtitles/edits.ts that remove it, and each kind a "Fix all" for the whole file.
 */
import * as vscode from 'vscode';
import type { ProblemKind } from '../../subtitles/check';
import { cueAtLine, fixAll, quickFix, SubtitleEditError, type QuickFix, type TextEdit } from '../../subtitles/edits';
import { SUBTITLE_CHECK_SOURCE, SUBTITLE_SELECTOR, subtitleFormatOf } from './diagnostics';
import { readSubtitleCheckSetting } from './style-setting';

/** The fixes each kind of problem offers, the first preferred, with their titles for cue N. */
const FIXES_FOR: Partial<Record<ProblemKind, QuickFix[]>> = {
  'line-too-long': ['rebalance', 'split'],
  'too-many-lines': ['rebalance', 'split'],
  'too-short': ['extend', 'merge'],
  'too-long': ['split'],
  overlap: ['pull-back'],
  'gap-too-small': ['pull-back'],
};

const TITLES: Record<QuickFix, (cue: number) => string> = {
  rebalance: (cue) => `Rebalance the lines of cue ${cue}`,
  split: (cue) => `Split cue ${cue} in two`,
  merge: (cue) => `Merge cue ${cue} with the next`,
  extend: (cue) => `Extend cue ${cue} into the following gap`,
  'pull-back': (cue) => `End cue ${cue - 1} before cue ${cue} starts`,
};

const FIX_ALL_NAMES: Partial<Record<ProblemKind, string>> = {
  'line-too-long': 'Rebalance all lines too long',
  'too-many-lines': 'Rebalance all cues with too many lines',
  'too-short': 'Extend all cues too short',
  'too-long': 'Split all cues too long',
  overlap: 'Pull back all overlaps',
  'gap-too-small': 'Pull back all gaps too small',
};

export function toWorkspaceEdit(document: vscode.TextDocument, edits: readonly TextEdit[]): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const change of edits) edit.replace(document.uri, new vscode.Range(document.positionAt(change.start), document.positionAt(change.end)), change.text);
  return edit;
}

/** "Fix all" reworks the whole file, so its edit is made only when the action is picked (resolveCodeAction). */
class FixAllAction extends vscode.CodeAction {
  constructor(readonly document: vscode.TextDocument, readonly problem: ProblemKind) {
    super(`${FIX_ALL_NAMES[problem]} in this file`, vscode.CodeActionKind.QuickFix);
  }
}

export class SubtitleQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const format = subtitleFormatOf(document);
    if (!format) return [];
    const ours = context.diagnostics.filter((d) => d.source === SUBTITLE_CHECK_SOURCE && FIXES_FOR[d.code as ProblemKind]);
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
      FIXES_FOR[kind]!.forEach((fix, i) => {
        const edits = attempt(() => quickFix(fix, source, format, style, cue));
        if (edits.length === 0) return;
        const action = new vscode.CodeAction(TITLES[fix](cue), vscode.CodeActionKind.QuickFix);
        action.edit = toWorkspaceEdit(document, edits);
        action.diagnostics = [diagnostic];
        action.isPreferred = i === 0;
        actions.push(action);
      });
    }
    for (const kind of kinds) actions.push(new FixAllAction(document, kind));
    return actions;
  }

  resolveCodeAction(action: vscode.CodeAction): vscode.CodeAction {
    if (action instanceof FixAllAction) action.edit = fixAllEdit(action.document, action.problem);
    return action;
  }
}

function fixAllEdit(document: vscode.TextDocument, problem: ProblemKind): vscode.WorkspaceEdit {
  const format = subtitleFormatOf(document);
  if (!format) return new vscode.WorkspaceEdit();
  const { style } = readSubtitleCheckSetting(document.uri);
  const source = document.getText();
  return toWorkspaceEdit(document, attempt(() => fixAll(source, format, style, problem, FIXES_FOR[problem]![0])));
}

/** A fix that does not apply (a merge of the last cue) is simply not offered. */
function attempt(make: () => TextEdit[]): TextEdit[] {
  try {
    return make();
  } catch (error) {
    if (error instanceof SubtitleEditError) return [];
    throw error;
  }
}

export function registerSubtitleQuickFixes(): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider(
    SUBTITLE_SELECTOR,
    new SubtitleQuickFixes(),
    { providedCodeActionKinds: SubtitleQuickFixes.kinds },
  );
}
