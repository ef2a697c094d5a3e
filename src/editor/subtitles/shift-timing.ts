/**
 * "Speech Studio: Shift Subtitle Timing…": moves all cues of the active .srt/.vtt, or those from the
 * cursor's cue on, by a typed number of seconds, as one undoable edit.
 */
import * as vscode from 'vscode';
import { cueAtLine, shiftTiming, SubtitleEditError } from '../../subtitles/edits';
import { subtitleFormatOf } from './diagnostics';
import { toWorkspaceEdit } from './quick-fixes';

export const SHIFT_TIMING_COMMAND = 'speechStudio.shiftSubtitleTiming';

/** "1.5", "+2", "-0.250", "-1,5" (a comma as the decimal mark), optionally with an "s". */
export function parseOffset(text: string): number | undefined {
  const match = /^\s*([+-]?\d+(?:[.,]\d*)?|[+-]?[.,]\d+)\s*s?\s*$/i.exec(text);
  return match ? Number(match[1].replace(',', '.')) : undefined;
}

async function shiftTimingCommand(): Promise<boolean> {
  const editor = vscode.window.activeTextEditor;
  const format = editor && subtitleFormatOf(editor.document);
  if (!editor || !format) {
    void vscode.window.showWarningMessage('Open an .srt or .vtt file to shift its timing.');
    return false;
  }
  const document = editor.document;
  const typed = await vscode.window.showInputBox({
    title: 'Shift Subtitle Timing',
    prompt: 'Seconds to move the cues by: positive later, negative earlier',
    placeHolder: 'e.g. 1.5 or -0.25',
    validateInput: (text) => (parseOffset(text) === undefined ? 'Type a number of seconds, such as 1.5 or -0.25' : undefined),
  });
  const offset = typed === undefined ? undefined : parseOffset(typed);
  if (offset === undefined || offset === 0) return false;
  const cursorCue = cueAtLine(document.getText(), format, editor.selection.active.line + 1);
  const choices: (vscode.QuickPickItem & { from: number })[] = [{ label: 'All cues', from: 1 }];
  if (cursorCue !== undefined && cursorCue > 1) choices.push({ label: `From cue ${cursorCue} on`, description: 'the cue at the cursor and those after it', from: cursorCue });
  const choice = choices.length === 1 ? choices[0] : await vscode.window.showQuickPick(choices, { title: `Shift by ${offset} s` });
  if (!choice) return false;
  try {
    return await vscode.workspace.applyEdit(toWorkspaceEdit(document, shiftTiming(document.getText(), format, offset, choice.from)));
  } catch (error) {
    if (!(error instanceof SubtitleEditError)) throw error;
    void vscode.window.showErrorMessage(`Cannot shift the timing: ${error.message}.`);
    return false;
  }
}

export function registerShiftSubtitleTiming(): vscode.Disposable {
  return vscode.commands.registerCommand(SHIFT_TIMING_COMMAND, shiftTimingCommand);
}
