/** The subtitle file a command works on: the active editor's subtitle file, or a warning saying to open one. */
import * as vscode from 'vscode';
import type { SubtitleFormat } from '../../subtitles/scan';
import { subtitleFormatOf } from './diagnostics';

export interface ActiveSubtitle {
  editor: vscode.TextEditor;
  document: vscode.TextDocument;
  format: SubtitleFormat;
}

/** The active subtitle editor; otherwise warns "Open a subtitle file … to `purpose`." and returns undefined. */
export function activeSubtitle(purpose: string): ActiveSubtitle | undefined {
  const editor = vscode.window.activeTextEditor;
  const format = editor && subtitleFormatOf(editor.document);
  if (editor && format) return { editor, document: editor.document, format };
  void vscode.window.showWarningMessage(
    `Open a subtitle file (.srt, .vtt, .ass, .ssa, .ttml, .dfxp or .sbv) to ${purpose}.`,
  );
  return undefined;
}
