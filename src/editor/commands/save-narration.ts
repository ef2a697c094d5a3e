/**
 * Save Narration As…: writes a narration in the format the file name asks for (wav, mp3, m4a/aac, flac,
 * ogg). The format the job already has is copied; any other is spoken again by the engine in that format
 * (the engine encodes, never ffmpeg on the extension host), then copied. From the command palette (the
 * last narration), the player's title bar (what it plays) and Narrate Selection's notification.
 */
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import type { JobRecord } from '../../jobs/types';
import { runWithProgress, succeeded } from '../job-progress';
import { reportError } from '../log';
import { NARRATION_EXTENSIONS, narrationFormatFor, sameFormat, suggestedNarrationName } from '../narration-file';
import type { Services } from '../services';

export interface SaveNarrationArgs {
  /** The narration's job; default: what the player plays, else the last narration. */
  jobId?: string;
  /** Where to write, skipping the save dialog (tests, other commands). */
  target?: string;
}

export interface SaveNarrationResult {
  file: string;
  /** The job that wrote the saved audio: the narration's own, or the one that spoke it again in the asked format. */
  job: JobRecord;
}

/**
 * The texts of this session's narrations, newest last: a finished job keeps only its audio, and another
 * format is spoken again from the text. Bounded: a long session does not grow it.
 */
const narrations = new Map<string, string>();
const KEPT_NARRATIONS = 50;

/** Narrate Selection records each narration; the last one is what "Save Narration As…" saves when nothing else says. */
export function rememberNarration(jobId: string, text: string): void {
  narrations.delete(jobId);
  narrations.set(jobId, text);
  if (narrations.size > KEPT_NARRATIONS) narrations.delete(narrations.keys().next().value!);
}

const lastNarrationJobId = (): string | undefined => [...narrations.keys()].at(-1);

/** The job whose output the player has loaded (job outputs live in a folder named for the job). */
function playerJobId(services: Services): string | undefined {
  const file = services.player.currentFile;
  return file ? path.basename(path.dirname(file)) : undefined;
}

async function askTarget(suggested: string, extension: string): Promise<string | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    title: 'Save Narration As (the extension sets the format: .wav .mp3 .m4a .aac .flac .ogg)',
    defaultUri: folder ? vscode.Uri.joinPath(folder, `${suggested}.${extension}`) : undefined,
    filters: { Audio: [...NARRATION_EXTENSIONS] },
  });
  return target?.fsPath;
}

export async function saveNarrationAs(
  services: Services,
  args: SaveNarrationArgs = {},
): Promise<SaveNarrationResult | undefined> {
  const jobId = args.jobId ?? (args.target ? undefined : playerJobId(services)) ?? lastNarrationJobId();
  const job = jobId ? await services.editorJobs.job(jobId) : undefined;
  if (!job || !succeeded(job) || job.input.kind !== 'tts') {
    void vscode.window.showInformationMessage(
      'There is no narration to save yet: narrate some text first (Speech Studio: Narrate Selection).',
    );
    return undefined;
  }
  const text = narrations.get(job.id);
  const input = job.input;
  const own = input.encodeAs ?? input.options.outputFormat;
  const target = args.target ?? (await askTarget(suggestedNarrationName(text ?? job.name), own));
  if (!target) return undefined;
  const format = narrationFormatFor(target);
  if (!format) {
    void vscode.window.showErrorMessage(
      `${path.basename(target)}: Speech Studio saves .${NARRATION_EXTENSIONS.join(', .')}; name the file with one of them.`,
    );
    return undefined;
  }
  let source = job;
  if (!sameFormat(format, { outputFormat: input.options.outputFormat, encodeAs: input.encodeAs })) {
    if (text === undefined) {
      void vscode.window.showErrorMessage(
        `This narration was made before VS Code started, so only its own format (.${own}) can be saved; narrate it again for .${path.extname(target).slice(1)}.`,
      );
      return undefined;
    }
    const { outputFormat: _format, bitrateKbps: _bitrate, ...options } = input.options;
    source = await runWithProgress(services.controller, `Saving as ${format.label}`, () =>
      services.editorJobs.createTts({
        ...options,
        text,
        outputFormat: format.outputFormat,
        ...(format.encodeAs ? { encodeAs: format.encodeAs } : {}),
      }),
    );
    if (!succeeded(source))
      throw new Error(source.error ?? `Speaking the narration as ${format.label} did not finish.`);
  }
  await copyFile((await services.editorJobs.outputPath(source))!, target);
  void vscode.window.showInformationMessage(`Saved ${path.basename(target)} (${format.label}).`);
  return { file: target, job: source };
}

export function registerSaveNarration(services: Services): vscode.Disposable {
  return vscode.commands.registerCommand('speechStudio.saveNarrationAs', async (first?: unknown) => {
    const args =
      typeof first === 'object' && first !== null && !(first instanceof vscode.Uri)
        ? (first as SaveNarrationArgs)
        : undefined;
    try {
      return await saveNarrationAs(services, args);
    } catch (error) {
      reportError(services.log, 'Saving the narration failed', error);
      return undefined;
    }
  });
}
