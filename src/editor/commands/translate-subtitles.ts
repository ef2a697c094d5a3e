/**
 * Translate Subtitle File…: translates the SRT or WebVTT file open in the editor (or a chosen one) with the
 * local language model, as a job of the job core (src/jobs/translate-job.ts): it runs in an engine process,
 * shows in the Jobs view, keeps every cue's times, lays the lines out by the file's subtitle style, and
 * Cancel (here or in the Jobs view) cancels the job, which leaves no partial file.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import type { TranslateResult } from '../../engine-api/protocol';
import { translatedName } from '../../jobs/translate-job';
import type { JobStatus } from '../../jobs/types';
import { followJob } from '../job-progress';
import { reportError } from '../log';
import type { Services } from '../services';
import { readSubtitleCheckSetting } from '../subtitles/style-setting';

export interface TranslateSubtitlesArgs {
  /** The subtitle file; the active editor's .srt or .vtt file when absent. */
  input?: string;
  /** A language tag such as de; asked for when absent. */
  to?: string;
  from?: string;
  /** Where the translation goes; default: beside the input, `name.<to>.srt`. */
  out?: string;
  /** A .gguf path or an installed model's name; default: chosen by memory. */
  model?: string;
  /** Open the translation when done (default true). */
  open?: boolean;
}

export interface TranslateSubtitlesResult {
  jobId: string;
  status: JobStatus;
  output: string;
  result: TranslateResult | null;
  error: string | null;
}

const SUBTITLE_FILE = /\.(srt|vtt)$/i;

async function chooseInput(args: TranslateSubtitlesArgs): Promise<string | undefined> {
  if (args.input) return args.input;
  const document = vscode.window.activeTextEditor?.document;
  if (document && document.uri.scheme === 'file' && SUBTITLE_FILE.test(document.uri.fsPath)) {
    if (document.isDirty) await document.save();
    return document.uri.fsPath;
  }
  const picked = await vscode.window.showOpenDialog({
    title: 'Subtitle file to translate',
    canSelectMany: false,
    filters: { Subtitles: ['srt', 'vtt'] },
  });
  return picked?.[0]?.fsPath;
}

async function chooseLanguage(args: TranslateSubtitlesArgs): Promise<string | undefined> {
  if (args.to) return args.to;
  const typed = await vscode.window.showInputBox({
    title: 'Translate Subtitle File',
    prompt: 'The language to translate into, as a tag (de, fr, es, pt-BR, ja…)',
    placeHolder: 'de',
    validateInput: (value) =>
      /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(value.trim()) ? undefined : 'A language tag such as de or pt-BR',
  });
  return typed?.trim() || undefined;
}

export async function translateSubtitles(
  services: Services,
  args: TranslateSubtitlesArgs = {},
): Promise<TranslateSubtitlesResult | undefined> {
  const input = await chooseInput(args);
  if (!input) return undefined;
  const to = await chooseLanguage(args);
  if (!to) return undefined;
  const out = args.out ?? translatedName(input, to);
  const { style } = readSubtitleCheckSetting(vscode.Uri.file(input));
  services.log.info(`Translating ${input} into ${to}, to ${out}`);
  const job = await services.editorJobs.createTranslation({
    input,
    out,
    to,
    style,
    ...(args.from ? { from: args.from } : {}),
    ...(args.model ? { model: args.model } : {}),
  });
  const { job: finished, result } = await followJob(
    services.controller,
    job,
    `Translating ${path.basename(input)} into ${to}`,
    (signal) => services.editorJobs.finishTranslation(job, signal),
  );
  if (finished.status === 'succeeded' && result) {
    if (args.open !== false) await vscode.window.showTextDocument(vscode.Uri.file(out), { preview: false });
    const notes = [
      result.shortened.length ? `${result.shortened.length} cue(s) shortened to fit the reading speed` : '',
      result.flagged.length ? `cue(s) ${result.flagged.map((f) => f.index).join(', ')} still read too fast` : '',
    ].filter(Boolean);
    void vscode.window.showInformationMessage(
      `Translated ${result.cues} cues into ${path.basename(out)}${notes.length ? `: ${notes.join('; ')}` : ''}.`,
    );
  } else if (finished.status === 'cancelled') {
    void vscode.window.showInformationMessage('Translation cancelled; no file was written.');
  } else {
    void vscode.window.showErrorMessage(`The translation failed: ${finished.error ?? finished.status}`);
  }
  return { jobId: finished.id, status: finished.status, output: out, result, error: finished.error };
}

export function registerTranslateSubtitles(services: Services): vscode.Disposable {
  return vscode.commands.registerCommand(
    'speechStudio.translateSubtitleFile',
    async (args?: TranslateSubtitlesArgs | vscode.Uri) => {
      try {
        // From the explorer's context menu the argument is the clicked file.
        const given: TranslateSubtitlesArgs = args instanceof vscode.Uri ? { input: args.fsPath } : (args ?? {});
        return await translateSubtitles(services, given);
      } catch (error) {
        reportError(services.log, 'The translation failed', error);
        return undefined;
      }
    },
  );
}
