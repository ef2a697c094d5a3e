/**
 * Export Audiobook…: turns the Markdown manuscript open in the editor (or a chosen file or folder) into an
 * M4B with chapters, or one MP3 per chapter, as a job of the job core (src/jobs/book-export.ts): it runs in
 * the engine process, shows in the Jobs view, speaks with the workspace lexicon, and Cancel (here or in the
 * Jobs view) cancels the job, which leaves no partial book. Speaker tags use the subtitle narration's
 * speaker-voice setting.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import type { BookResult } from '../../audiobook/book-plan';
import type { JobRecord, JobStatus } from '../../jobs/types';
import { reportError } from '../log';
import type { Services } from '../services';

export interface ExportAudiobookArgs {
  /** The manuscript: a .md file or a folder of them; the active Markdown editor's file when absent. */
  input?: string;
  /** The book to write, or with `perChapter` the folder for the chapter MP3s; asked for when absent. */
  out?: string;
  perChapter?: boolean;
  voiceId?: string;
}

export interface ExportAudiobookResult {
  /** The book job's id and how it ended. */
  jobId: string;
  status: JobStatus;
  output: string;
  result: BookResult | null;
  error: string | null;
}

async function chooseInput(args: ExportAudiobookArgs): Promise<string | undefined> {
  if (args.input) return args.input;
  const document = vscode.window.activeTextEditor?.document;
  if (document?.languageId === 'markdown' && document.uri.scheme === 'file') {
    if (document.isDirty) await document.save();
    return document.uri.fsPath;
  }
  const picked = await vscode.window.showOpenDialog({
    title: 'Manuscript to export: a Markdown file, or a folder of them read in name order',
    canSelectFiles: true, canSelectFolders: true, canSelectMany: false, filters: { Markdown: ['md'] },
  });
  return picked?.[0]?.fsPath;
}

async function chooseOutput(input: string, args: ExportAudiobookArgs): Promise<{ out: string; perChapter: boolean } | undefined> {
  if (args.out) return { out: args.out, perChapter: args.perChapter === true };
  const base = input.replace(/\.md$/i, '');
  const kind = await vscode.window.showQuickPick(
    [
      { label: 'One M4B with chapters', description: 'AAC, a chapter marker per heading', perChapter: false },
      { label: 'One MP3 per chapter', description: 'a folder of tagged MP3 files', perChapter: true },
    ],
    { title: 'Export Audiobook' },
  );
  if (!kind) return undefined;
  if (kind.perChapter) {
    const folder = await vscode.window.showSaveDialog({ title: 'Folder for the chapter MP3s', defaultUri: vscode.Uri.file(`${base}-chapters`) });
    return folder ? { out: folder.fsPath, perChapter: true } : undefined;
  }
  const file = await vscode.window.showSaveDialog({ title: 'Save the audiobook', defaultUri: vscode.Uri.file(`${base}.m4b`), filters: { Audiobook: ['m4b'], MP3: ['mp3'] } });
  return file ? { out: file.fsPath, perChapter: false } : undefined;
}

export async function exportAudiobook(services: Services, args: ExportAudiobookArgs = {}): Promise<ExportAudiobookResult | undefined> {
  const input = await chooseInput(args);
  if (!input) return undefined;
  const target = await chooseOutput(input, args);
  if (!target) return undefined;
  const settings = services.settings();
  const format = target.perChapter || path.extname(target.out).toLowerCase() === '.mp3' ? 'mp3' : 'm4b';
  const voiceId = args.voiceId ?? (settings.ttsDefaultVoice || undefined);
  services.log.info(`Exporting the audiobook ${input} to ${target.out}`);
  const job = await services.editorJobs.createBook({
    input, out: target.out, format, perChapter: target.perChapter, speakers: settings.ttsSpeakerVoices, ...(voiceId ? { voiceId } : {}),
  });

  const ended = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Exporting ${path.basename(target.out)}`, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const cancelling = token.onCancellationRequested(() => controller.abort());
      let reported = 0;
      const watching = services.controller.onDidChangeJob((changed: JobRecord) => {
        if (changed.id !== job.id) return;
        progress.report({ message: `${Math.floor(changed.progress)}%${changed.phase ? ` · ${changed.phase}` : ''}`, increment: Math.max(0, changed.progress - reported) });
        reported = Math.max(reported, changed.progress);
      });
      try {
        return await services.editorJobs.finishBook(job, controller.signal);
      } finally {
        watching.dispose();
        cancelling.dispose();
      }
    },
  );
  const { job: finished, result } = ended;
  if (finished.status === 'succeeded' && result) {
    const summary = `${result.synthesized} paragraphs synthesized, ${result.reused} from the cache.`;
    void vscode.window.showInformationMessage(`Wrote ${path.basename(target.out)}. ${summary}`, 'Reveal').then((choice) => {
      if (choice) void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(target.out));
    });
  } else if (finished.status === 'cancelled') {
    void vscode.window.showInformationMessage('Audiobook export cancelled; no book was written.');
  } else {
    void vscode.window.showErrorMessage(`The audiobook export failed: ${finished.error ?? finished.status}`);
  }
  return { jobId: finished.id, status: finished.status, output: target.out, result, error: finished.error };
}

export function registerExportAudiobook(services: Services): vscode.Disposable {
  return vscode.commands.registerCommand('speechStudio.exportAudiobook', async (args?: ExportAudiobookArgs | vscode.Uri) => {
    try {
      // From the explorer's context menu the argument is the clicked file or folder.
      const given: ExportAudiobookArgs = args instanceof vscode.Uri ? { input: args.fsPath } : (args ?? {});
      return await exportAudiobook(services, given);
    } catch (error) {
      reportError(services.log, 'The audiobook export failed', error);
      return undefined;
    }
  });
}
