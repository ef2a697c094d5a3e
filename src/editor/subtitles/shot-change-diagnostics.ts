/**
 * Cues that start or end near a shot change without being on it, as diagnostics beside the subtitle check's
 * (a source of their own), once the shot changes of the file's video are known (shot-changes.ts's command
 * or the timeline finds them). The rule itself lives in src/subtitles/shot-changes.ts.
 */
import * as vscode from 'vscode';
import type { SubtitleStyle } from '../../contract/subtitle-style';
import type { SubtitleFormat } from '../../subtitles/scan';
import { checkShotChanges, type ShotChangeProblem, type ShotChanges } from '../../subtitles/shot-changes';

export const SHOT_CHANGE_SOURCE = 'Speech Studio shot changes';

/** The shot changes found in each subtitle file's video this session, by document URI. */
const knownShots = new Map<string, ShotChanges>();
const shotsFound = new vscode.EventEmitter<vscode.Uri>();
/** Fires when the shot changes of a subtitle file's video become known, so its diagnostics are made again. */
export const onShotsFound = shotsFound.event;

export function rememberShots(uri: vscode.Uri, shots: ShotChanges): void {
  knownShots.set(uri.toString(), { framesPerSecond: shots.framesPerSecond, changes: [...shots.changes] });
  shotsFound.fire(uri);
}

export function forgetShots(uri: vscode.Uri): void {
  knownShots.delete(uri.toString());
}

/** The problems of one document against its video's shot changes; none while they are not known. */
export function shotChangeProblems(
  document: vscode.TextDocument,
  format: SubtitleFormat,
  style: SubtitleStyle,
): ShotChangeProblem[] {
  const shots = knownShots.get(document.uri.toString());
  return shots ? checkShotChanges(document.getText(), format, style, shots) : [];
}

/** The diagnostics on each problem's timing line; `code` is `shot-change-start` or `shot-change-end`. */
export function shotChangeDiagnostics(
  document: vscode.TextDocument,
  format: SubtitleFormat,
  style: SubtitleStyle,
): vscode.Diagnostic[] {
  return shotChangeProblems(document, format, style).map((problem) => {
    const line = Math.min(Math.max(problem.line - 1, 0), Math.max(document.lineCount - 1, 0));
    const message = `${problem.message.charAt(0).toUpperCase()}${problem.message.slice(1)}.`;
    const diagnostic = new vscode.Diagnostic(document.lineAt(line).range, message, vscode.DiagnosticSeverity.Warning);
    diagnostic.source = SHOT_CHANGE_SOURCE;
    diagnostic.code = `shot-change-${problem.edge}`;
    return diagnostic;
  });
}
