/**
 * Cues a recognizer may have invented, as diagnostics beside the subtitle check's (a source of their own, so
 * the two can be told apart and filtered). Text over silence is pointed at once the speech of the file's
 * media is known (invented-text.ts's command finds it).
 */
import * as vscode from 'vscode';
import type { SpeechSpan } from '../../subtitles/hallucination-flags';
import { checkInventedText } from '../../subtitles/invented-text';
import type { SubtitleFormat } from '../../subtitles/scan';
import { SUBTITLE_SETTINGS } from './style-setting';

export const INVENTED_TEXT_SOURCE = 'Speech Studio invented text';

/** The speech found in each subtitle file's media this session, by document URI; one entry per checked file. */
const heardSpeech = new Map<string, SpeechSpan[]>();
const speechFound = new vscode.EventEmitter<vscode.Uri>();
/** Fires when the speech of a subtitle file's media becomes known, so its diagnostics are made again. */
export const onSpeechFound = speechFound.event;

export function flagInventedTextEnabled(uri: vscode.Uri): boolean {
  return vscode.workspace.getConfiguration(SUBTITLE_SETTINGS, uri).get<boolean>('flagInventedText', true) !== false;
}

/** The invented-text diagnostics of one subtitle document, on each cue's timing line. */
export function inventedTextDiagnostics(document: vscode.TextDocument, format: SubtitleFormat): vscode.Diagnostic[] {
  if (!flagInventedTextEnabled(document.uri)) return [];
  return checkInventedText(document.getText(), format, heardSpeech.get(document.uri.toString())).map((problem) => {
    const line = Math.min(Math.max(problem.line - 1, 0), Math.max(document.lineCount - 1, 0));
    const message = `${problem.message.charAt(0).toUpperCase()}${problem.message.slice(1)}.`;
    const diagnostic = new vscode.Diagnostic(document.lineAt(line).range, message, vscode.DiagnosticSeverity.Warning);
    diagnostic.source = INVENTED_TEXT_SOURCE;
    diagnostic.code = problem.flag;
    return diagnostic;
  });
}

/** Keeps the speech found in a subtitle file's media for its diagnostics, until the file is closed. */
export function rememberSpeech(uri: vscode.Uri, speech: SpeechSpan[]): void {
  heardSpeech.set(uri.toString(), speech);
  speechFound.fire(uri);
}

export function forgetSpeech(uri: vscode.Uri): void {
  heardSpeech.delete(uri.toString());
}
