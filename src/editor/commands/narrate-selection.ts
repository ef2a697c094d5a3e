/**
 * Narrate Selection: speaks the selected text, or the paragraph around the cursor, with the default
 * voice (quotes the document's cast attributes with their characters' voices); plays it in the player and
 * offers to save it as a file.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { ttsResultOf, type JobRecord } from '../../jobs/types';
import { castOfFile, castSsml, castVoiceSpans, readyCastVoice } from '../../cast/cast-voices';
import { runWithProgress, succeeded } from '../job-progress';
import { reportError } from '../log';
import type { Services } from '../services';
import { ssmlBlockAt } from '../../text/ssml/ssml-blocks';
import { looksLikeSsml } from '../../text/ssml/ssml-plan';
import { rememberNarration } from './save-narration';

export interface NarrateArgs {
  /** Text to speak instead of the editor's selection. */
  text?: string;
  voiceId?: string;
  /** Open the player (default true). */
  play?: boolean;
}

export interface NarrateResult {
  job: JobRecord;
  /** The audio in the job's folder, when the job succeeded. */
  audioPath?: string;
}

/**
 * The selections' text; with nothing selected, the SSML around the cursor (all of an `.ssml` file, the ```ssml
 * block of a Markdown file), else the paragraph (lines between blank lines) at the cursor.
 */
export function textToNarrate(editor: vscode.TextEditor): string {
  const selected = editor.selections.filter((s) => !s.isEmpty).map((s) => editor.document.getText(s));
  if (selected.length > 0) return selected.join('\n\n').trim();
  const { document } = editor;
  const line = editor.selection.active.line;
  const ssml = ssmlBlockAt(document.getText(), document.languageId, line);
  if (ssml) return ssml.text.trim();
  if (document.lineAt(line).isEmptyOrWhitespace) return '';
  let first = line;
  let last = line;
  while (first > 0 && !document.lineAt(first - 1).isEmptyOrWhitespace) first--;
  while (last < document.lineCount - 1 && !document.lineAt(last + 1).isEmptyOrWhitespace) last++;
  return document.getText(new vscode.Range(first, 0, last, document.lineAt(last).text.length)).trim();
}

/** The toast is a shortcut: Save Narration As… (command palette, the player's title bar) stays after it hides. */
async function offerSave(jobId: string): Promise<void> {
  const choice = await vscode.window.showInformationMessage('The narration is ready.', 'Save As…');
  if (choice === 'Save As…') await vscode.commands.executeCommand('speechStudio.saveNarrationAs', { jobId });
}

/** Where an SSML `<audio src>` may point: the workspace folders and the document's own folder. */
export function audioFolders(editor: vscode.TextEditor | undefined): string[] {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  if (editor?.document.uri.scheme === 'file') folders.push(path.dirname(editor.document.uri.fsPath));
  return folders;
}

/** What a narration's engine did not honour of its SSML (`ssml …` in ignoredOptions), as Problems where the SSML is. */
let skipped: vscode.DiagnosticCollection | undefined;

function showSkipped(editor: vscode.TextEditor | undefined, job: JobRecord): void {
  if (!editor || !skipped) return;
  const { document, selection } = editor;
  const ignored = Object.entries(ttsResultOf(job)?.ignoredOptions ?? {}).filter(([key]) => key.startsWith('ssml '));
  const block = ssmlBlockAt(document.getText(), document.languageId, selection.active.line);
  const range = !selection.isEmpty
    ? selection
    : block
      ? new vscode.Range(block.line, 0, block.endLine, document.lineAt(block.endLine).text.length)
      : document.lineAt(selection.active.line).range;
  skipped.set(
    document.uri,
    ignored.map(([key, reason]) => {
      const problem = new vscode.Diagnostic(
        range,
        `Narration did not honour ${key}: ${reason}`,
        vscode.DiagnosticSeverity.Information,
      );
      problem.source = 'Narrate';
      return problem;
    }),
  );
}

/**
 * The text as SSML whose quotes the document's cast voices (src/cast/cast-voices.ts), when it has any whose
 * voice is ready here; else the text as it is. SSML already, or a broken cast file: the text as it is.
 */
async function withCast(services: Services, document: vscode.TextDocument, text: string): Promise<string> {
  if (document.uri.scheme !== 'file' || looksLikeSsml(text)) return text;
  const cast = await castOfFile(document.uri.fsPath).catch((error: unknown) => {
    services.log.warn(`Narrating without the cast: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  });
  const spans = cast ? castVoiceSpans(text, cast).filter((span) => readyCastVoice(services.voices, span.voice)) : [];
  return spans.length > 0 ? castSsml(text, spans) : text;
}

export async function narrateSelection(services: Services, args: NarrateArgs = {}): Promise<NarrateResult | undefined> {
  const editor = vscode.window.activeTextEditor;
  const text = args.text ?? (editor ? textToNarrate(editor) : '');
  if (!text) {
    void vscode.window.showInformationMessage('Select some text, or put the cursor in a paragraph, to narrate it.');
    return undefined;
  }
  const spoken = args.text === undefined && editor ? await withCast(services, editor.document, text) : text;
  const job = await runWithProgress(services.controller, 'Narrating', () =>
    services.editorJobs.createTts({ text: spoken, voiceId: args.voiceId, audioFolders: audioFolders(editor) }),
  );
  if (!succeeded(job)) return { job };
  if (args.text === undefined) showSkipped(editor, job);
  const audioPath = (await services.editorJobs.outputPath(job))!;
  if (args.play !== false) services.player.play(audioPath, job.name);
  rememberNarration(job.id, text);
  void offerSave(job.id);
  return { job, audioPath };
}

export function registerNarrateSelection(services: Services): vscode.Disposable {
  const command = vscode.commands.registerCommand('speechStudio.narrateSelection', async (first?: unknown) => {
    const args =
      typeof first === 'object' && first !== null && !(first instanceof vscode.Uri)
        ? (first as NarrateArgs)
        : undefined;
    try {
      return await narrateSelection(services, args);
    } catch (error) {
      reportError(services.log, 'Narration failed', error);
      return undefined;
    }
  });
  skipped = vscode.languages.createDiagnosticCollection('speechStudio.narrate');
  return vscode.Disposable.from(command, skipped);
}
