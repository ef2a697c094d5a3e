/**
 * The per-cue fit report of a subtitle narration as problems on the subtitle file: each cue whose speech
 * ran past its time gets a warning on its timing line; a file that cannot be read gets an error where
 * the reader stopped.
 */
import * as vscode from 'vscode';
import type { TtsResult } from '../contract/types';
import { parseSubtitles, SubtitleError, type SubtitleFormat } from '../subtitles/parse';

export interface CueFit {
  /** Position of the cue in the file, from 1. */
  index: number;
  /** Seconds the speech ran past what the cue could use. */
  overrunSeconds: number;
}

/** The cues that overran, from a subtitle narration job's `result.cues` (the engine's cue report). */
export function overrunCues(result: TtsResult | null): CueFit[] {
  return (result?.cues ?? [])
    .filter((cue) => cue.overran)
    .map((cue) => ({ index: cue.index, overrunSeconds: cue.overrunSeconds }));
}

const source = (diagnostic: vscode.Diagnostic, code: string): vscode.Diagnostic => {
  diagnostic.source = 'Speech Studio';
  diagnostic.code = code;
  return diagnostic;
};

export function fitDiagnostics(
  document: vscode.TextDocument,
  format: SubtitleFormat,
  overruns: CueFit[],
): vscode.Diagnostic[] {
  const lines = new Map(parseSubtitles(document.getText(), format).map((cue) => [cue.index, cue.line - 1]));
  return overruns.flatMap((cue) => {
    const line = lines.get(cue.index);
    if (line === undefined || line >= document.lineCount) return [];
    const message = `Cue ${cue.index}: the narration runs ${cue.overrunSeconds.toFixed(2)} s longer than the cue allows.`;
    return [
      source(
        new vscode.Diagnostic(document.lineAt(line).range, message, vscode.DiagnosticSeverity.Warning),
        'cue-overrun',
      ),
    ];
  });
}

/** Reads the file as the engine will; on failure, the error as a diagnostic on the line it names. */
export function readProblem(document: vscode.TextDocument, format: SubtitleFormat): vscode.Diagnostic | undefined {
  try {
    parseSubtitles(document.getText(), format);
    return undefined;
  } catch (error) {
    if (!(error instanceof SubtitleError)) throw error;
    const line = Math.min(Math.max(error.line - 1, 0), document.lineCount - 1);
    return source(
      new vscode.Diagnostic(
        document.lineAt(line).range,
        `Not valid ${format.toUpperCase()}: ${error.reason}`,
        vscode.DiagnosticSeverity.Error,
      ),
      'subtitle-syntax',
    );
  }
}
