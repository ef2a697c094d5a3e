/**
 * The workspace lexicon as editor TTS jobs use it: `.speech/lexicon.json` of the first workspace folder, read
 * for every job (so a saved edit counts from the next job on); an invalid file is left out with a warning
 * that names the bad entry, and the job runs with the server's lexicon alone.
 */
import * as vscode from 'vscode';
import type { LexiconEntry } from '../contract/types';
import { readWorkspaceLexicon, workspaceLexiconPath } from '../lexicon/workspace-lexicon';
import type { EditorLog } from './log';

/** The lexicon file of the first workspace folder on disk; undefined without a folder. */
export function workspaceLexiconFile(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  return folder ? workspaceLexiconPath(folder.uri.fsPath) : undefined;
}

export function workspaceLexiconReader(log: EditorLog): () => Promise<readonly LexiconEntry[]> {
  let lastProblem: string | undefined;
  return async () => {
    const file = workspaceLexiconFile();
    if (!file) return [];
    const read = await readWorkspaceLexicon(file);
    if (read.problem !== undefined) {
      log.warn(`The workspace pronunciation lexicon is not used: ${read.problem}`);
      // Once per problem: every narration would otherwise repeat the same notification.
      if (read.problem !== lastProblem) {
        void vscode.window.showWarningMessage(`The workspace pronunciation lexicon is not used: ${read.problem}`);
      }
    }
    lastProblem = read.problem;
    return read.entries;
  };
}
