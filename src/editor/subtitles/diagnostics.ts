/**
 * Problems while you type: every open subtitle file (`.srt`, `.vtt`, `.ass`, `.ssa`, `.ttml`, `.dfxp`, `.sbv`) is checked against its subtitle style
 * (src/subtitles/check.ts) and each problem becomes a diagnostic on its line, updated as the file changes
 * and when the style settings change. Cues the recognizer may have invented are pointed at beside them
 * (invented-text.ts, a source of their own), and so are cues near a shot change of the video once its shot
 * changes are known (shot-change-diagnostics.ts).
 */
import * as vscode from 'vscode';
import { checkSubtitles, type SubtitleProblem } from '../../subtitles/check';
import { subtitleFormatOfPath, type SubtitleFormat } from '../../subtitles/scan';
import { forgetSpeech, inventedTextDiagnostics, onSpeechFound } from './invented-text-diagnostics';
import { forgetShots, onShotsFound, shotChangeDiagnostics } from './shot-change-diagnostics';
import { readSubtitleCheckSetting, SUBTITLE_SETTINGS } from './style-setting';

// Typing bursts are checked once they pause; a 2 000-cue file takes a few milliseconds.
const DEBOUNCE_MS = 150;

export const SUBTITLE_CHECK_SOURCE = 'Speech Studio subtitles';

/** The files the subtitle features work on, for providers registered by document selector. */
export const SUBTITLE_SELECTOR: vscode.DocumentSelector = [{ pattern: '**/*.{srt,vtt,ass,ssa,ttml,dfxp,sbv}' }];

export function subtitleFormatOf(document: vscode.TextDocument): SubtitleFormat | undefined {
  return subtitleFormatOfPath(document.uri.path);
}

/** The diagnostics of one subtitle document (empty when checking is off for it). */
export function subtitleDiagnostics(document: vscode.TextDocument): vscode.Diagnostic[] {
  const format = subtitleFormatOf(document);
  if (!format) return [];
  const setting = readSubtitleCheckSetting(document.uri);
  if (!setting.enabled) return [];
  const diagnostics = [
    ...checkSubtitles(document.getText(), format, setting.style).map((problem) => toDiagnostic(document, problem)),
    ...inventedTextDiagnostics(document, format),
    ...shotChangeDiagnostics(document, format, setting.style),
  ];
  if (setting.invalid) {
    const range = document.lineCount > 0 ? document.lineAt(0).range : new vscode.Range(0, 0, 0, 0);
    diagnostics.unshift(
      tagged(
        new vscode.Diagnostic(
          range,
          `${setting.invalid}; checking with the preset's values.`,
          vscode.DiagnosticSeverity.Information,
        ),
        'setting',
      ),
    );
  }
  return diagnostics;
}

function toDiagnostic(document: vscode.TextDocument, problem: SubtitleProblem): vscode.Diagnostic {
  const line = Math.min(Math.max(problem.line - 1, 0), Math.max(document.lineCount - 1, 0));
  const severity = problem.kind === 'parse' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning;
  const message = problem.kind === 'parse' ? `Cannot read this: ${problem.message}` : capitalize(problem.message);
  return tagged(new vscode.Diagnostic(document.lineAt(line).range, message, severity), problem.kind);
}

function tagged(diagnostic: vscode.Diagnostic, code: string): vscode.Diagnostic {
  diagnostic.source = SUBTITLE_CHECK_SOURCE;
  diagnostic.code = code;
  return diagnostic;
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** Keeps the diagnostics of every open subtitle file current. */
export function registerSubtitleDiagnostics(): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection('speechStudio.subtitleCheck');
  const pending = new Map<string, NodeJS.Timeout>();
  const refresh = (document: vscode.TextDocument): void => {
    if (!subtitleFormatOf(document)) return;
    collection.set(document.uri, subtitleDiagnostics(document));
  };
  const later = (document: vscode.TextDocument): void => {
    const key = document.uri.toString();
    clearTimeout(pending.get(key));
    pending.set(
      key,
      setTimeout(() => {
        pending.delete(key);
        refresh(document);
      }, DEBOUNCE_MS),
    );
  };
  vscode.workspace.textDocuments.forEach(refresh);
  return vscode.Disposable.from(
    collection,
    vscode.workspace.onDidOpenTextDocument(refresh),
    vscode.workspace.onDidChangeTextDocument((event) => later(event.document)),
    vscode.workspace.onDidCloseTextDocument((document) => {
      clearTimeout(pending.get(document.uri.toString()));
      collection.delete(document.uri);
      forgetSpeech(document.uri);
      forgetShots(document.uri);
    }),
    onSpeechFound((uri) =>
      vscode.workspace.textDocuments.filter((document) => document.uri.toString() === uri.toString()).forEach(refresh),
    ),
    onShotsFound((uri) =>
      vscode.workspace.textDocuments.filter((document) => document.uri.toString() === uri.toString()).forEach(refresh),
    ),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(SUBTITLE_SETTINGS)) vscode.workspace.textDocuments.forEach(refresh);
    }),
    { dispose: () => pending.forEach((timer) => clearTimeout(timer)) },
  );
}
