/**
 * Problems for SSML in `.ssml` files and ```ssml blocks of Markdown: the core reader's refusal (malformed XML,
 * an element or value it does not take) at its line and column, and what it reads but does not use as a hint.
 */
import * as vscode from 'vscode';
import { parseSsml, SsmlError } from '../../text/ssml/parse-ssml';
import { ssmlBlocks } from '../../text/ssml/ssml-blocks';

const SOURCE = 'SSML';

export function ssmlProblems(document: vscode.TextDocument): vscode.Diagnostic[] {
  const problems: vscode.Diagnostic[] = [];
  for (const block of ssmlBlocks(document.getText(), document.languageId)) {
    if (block.text.trim() === '') continue;
    try {
      const plan = parseSsml(block.text);
      for (const [what, reason] of Object.entries(plan.ignored)) {
        const problem = new vscode.Diagnostic(
          new vscode.Range(block.line, 0, block.line, 0),
          `${what}: ${reason}`,
          vscode.DiagnosticSeverity.Hint,
        );
        problem.source = SOURCE;
        problems.push(problem);
      }
    } catch (error) {
      if (!(error instanceof SsmlError)) throw error;
      const line = Math.min(document.lineCount - 1, block.line + error.line - 1);
      const column = Math.max(0, error.column - 1);
      const end = Math.min(document.lineAt(line).text.length, column + 1);
      const problem = new vscode.Diagnostic(
        new vscode.Range(line, column, line, Math.max(end, column)),
        error.reason,
        vscode.DiagnosticSeverity.Error,
      );
      problem.source = SOURCE;
      problems.push(problem);
    }
  }
  return problems;
}

/** Keeps the Problems of every open `.ssml` and Markdown document up to date. */
export function registerSsmlDiagnostics(): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection('speechStudio.ssml');
  const check = (document: vscode.TextDocument): void => {
    if (document.languageId !== 'ssml' && document.languageId !== 'markdown') return;
    collection.set(document.uri, ssmlProblems(document));
  };
  vscode.workspace.textDocuments.forEach(check);
  return vscode.Disposable.from(
    collection,
    vscode.workspace.onDidOpenTextDocument(check),
    vscode.workspace.onDidChangeTextDocument((event) => check(event.document)),
    vscode.workspace.onDidCloseTextDocument((document) => collection.delete(document.uri)),
  );
}
