/**
 * "Speech Studio: Fix Common Problems…" (Subtitle Edit's "Fix common errors"): the safe fix of every fixable
 * problem in the subtitle file (src/subtitles/safe-fixes.ts), previewed in a list of before → after
 * changes with what stays, then applied as one undoable edit. The quick fixes' "… in this file" run it for
 * one kind of problem.
 */
import * as vscode from 'vscode';
import type { ProblemKind } from '../../subtitles/check';
import { planCommonFixes, type CommonFixesPlan } from '../../subtitles/safe-fixes';
import { reportError } from '../log';
import type { Services } from '../services';
import { activeSubtitle } from './active-subtitle';
import { subtitleFormatOf } from './diagnostics';
import { FIX_COMMON_PROBLEMS_COMMAND, toWorkspaceEdit } from './quick-fixes';
import { readSubtitleCheckSetting } from './style-setting';

export interface FixCommonProblemsResult {
  applied: boolean;
  steps: CommonFixesPlan['steps'];
  remaining: string[];
}

interface PreviewItem extends vscode.QuickPickItem {
  apply?: boolean;
}

function previewItems(plan: CommonFixesPlan): PreviewItem[] {
  const items: PreviewItem[] = [];
  if (plan.steps.length > 0) {
    items.push({
      label: `$(check) Apply ${plan.steps.length === 1 ? 'this fix' : `these ${plan.steps.length} fixes`}`,
      description: 'as one edit (Undo takes it back)',
      apply: true,
      alwaysShow: true,
    });
    items.push({ label: 'Changes', kind: vscode.QuickPickItemKind.Separator });
    for (const step of plan.steps)
      items.push({ label: step.title, description: step.problem.message, detail: step.change });
  }
  if (plan.remaining.length > 0) {
    items.push({ label: 'Left as they are', kind: vscode.QuickPickItemKind.Separator });
    for (const problem of plan.remaining) {
      const unsafe = plan.unsafe.find((u) => u.problem.kind === problem.kind && u.problem.message === problem.message);
      items.push({
        label: `$(warning) ${problem.message}`,
        detail: unsafe ? `${unsafe.title} would create: ${unsafe.wouldCreate.join('; ')}` : 'no automatic fix',
      });
    }
  }
  return items;
}

/** Asks with the preview; resolves true when the user chose Apply. */
function confirm(plan: CommonFixesPlan, fileName: string): Promise<boolean> {
  const pick = vscode.window.createQuickPick<PreviewItem>();
  pick.title = `Fix Common Problems in ${fileName}: ${plan.steps.length} to fix, ${plan.remaining.length} left after`;
  pick.placeholder = 'Enter applies the fixes listed; Escape leaves the file as it is';
  pick.items = previewItems(plan);
  pick.matchOnDetail = true;
  pick.ignoreFocusOut = true;
  return new Promise<boolean>((resolve) => {
    let chosen = false;
    pick.onDidAccept(() => {
      // Enter anywhere in the preview applies; the rows only say what will change.
      chosen = true;
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(chosen);
    });
    pick.show();
  });
}

/** Plans, previews and applies; `kinds` limits it to some kinds of problem. */
export async function fixCommonProblems(
  document: vscode.TextDocument,
  kinds?: readonly ProblemKind[],
): Promise<FixCommonProblemsResult | undefined> {
  const format = subtitleFormatOf(document);
  if (!format) return undefined;
  const source = document.getText();
  const plan = planCommonFixes(source, format, readSubtitleCheckSetting(document.uri).style, kinds);
  const remaining = plan.remaining.map((p) => p.message);
  const fileName = document.uri.path.split('/').pop() ?? 'the file';
  if (plan.steps.length === 0) {
    void vscode.window.showInformationMessage(
      `Nothing to fix without creating another problem in ${fileName}${remaining.length ? `: ${remaining.length} problem${remaining.length === 1 ? '' : 's'} left for you` : ''}.`,
    );
    return { applied: false, steps: [], remaining };
  }
  if (!(await confirm(plan, fileName))) return { applied: false, steps: plan.steps, remaining };
  if (document.getText() !== source)
    throw new Error(`${fileName} changed while the preview was open: run Fix Common Problems again.`);
  const applied = await vscode.workspace.applyEdit(toWorkspaceEdit(document, plan.edits));
  if (applied) {
    void vscode.window.showInformationMessage(
      `Fixed ${plan.steps.length} problem${plan.steps.length === 1 ? '' : 's'} in ${fileName}; ${remaining.length === 0 ? 'none left' : `${remaining.length} left (see Problems)`}.`,
    );
  }
  return { applied, steps: plan.steps, remaining };
}

export function registerFixCommonProblems(services: Services): vscode.Disposable {
  return vscode.commands.registerCommand(FIX_COMMON_PROBLEMS_COMMAND, async (uri?: unknown, kinds?: unknown) => {
    try {
      const document =
        uri instanceof vscode.Uri
          ? await vscode.workspace.openTextDocument(uri)
          : activeSubtitle('fix its common problems')?.document;
      if (!document) return undefined;
      return await fixCommonProblems(document, Array.isArray(kinds) ? (kinds as ProblemKind[]) : undefined);
    } catch (error) {
      reportError(services.log, 'Fixing common problems failed', error);
      return undefined;
    }
  });
}
