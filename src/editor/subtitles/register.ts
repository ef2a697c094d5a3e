/** The subtitle editing features together: the check's diagnostics, their quick fixes, the timing shift. */
import * as vscode from 'vscode';
import { registerSubtitleDiagnostics } from './diagnostics';
import { registerSubtitleQuickFixes } from './quick-fixes';
import { registerShiftSubtitleTiming } from './shift-timing';

export function registerSubtitleEditing(): vscode.Disposable {
  return vscode.Disposable.from(registerSubtitleDiagnostics(), registerSubtitleQuickFixes(), registerShiftSubtitleTiming());
}
