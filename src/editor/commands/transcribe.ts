/**
 * Transcribe Media File…: from the explorer's context menu on a media file, or a file picker. Writes the
 * transcript beside the media (asking before replacing a file) and opens it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import { MEDIA_EXTENSIONS } from '../../contract/media-types';
import type { JobRecord } from '../../jobs/types';
import { renderTranscript, type Transcript } from '../../subtitles/render';
import { renderSubtitleFile } from '../../subtitles/subtitle-file';
import { runWithProgress, succeeded } from '../job-progress';
import { reportError } from '../log';
import { besideSource, chooseOutputFile } from '../output-target';
import type { Services } from '../services';
import { askTranscribeOptions, FORMAT_EXTENSIONS, RENDER_FORMATS, type TranscribeOptions } from './transcribe-options';

/** Arguments a caller (or a test) may pass to skip the questions. */
export interface TranscribeArgs extends Partial<TranscribeOptions> {
  /** Replace an existing transcript without asking. */
  overwrite?: boolean;
  /** Open the written file (default true). */
  open?: boolean;
  /** Ask every question again instead of using the workspace's remembered answers. */
  chooseOptions?: boolean;
}

/** The options among the arguments (only those really given: `in` checks matter to the questions). */
function given(args: TranscribeArgs): Partial<TranscribeOptions> {
  const { overwrite: _overwrite, open: _open, chooseOptions: _choose, ...options } = args;
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

export interface TranscribeResult {
  job: JobRecord;
  /** The transcript written beside the media; undefined when the job did not succeed. */
  output?: vscode.Uri;
}

function isArgs(value: unknown): value is TranscribeArgs {
  return typeof value === 'object' && value !== null && !(value instanceof vscode.Uri) && !Array.isArray(value);
}

async function pickMedia(): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title: 'Transcribe Media File',
    canSelectMany: false,
    openLabel: 'Transcribe',
    filters: { 'Audio and video': [...MEDIA_EXTENSIONS] },
  });
  return picked?.[0];
}

export async function transcribeMediaFile(
  services: Services,
  media: vscode.Uri | undefined,
  args: TranscribeArgs = {},
): Promise<TranscribeResult | undefined> {
  const uri = media ?? (await pickMedia());
  if (!uri) return undefined;
  if (uri.scheme !== 'file') throw new Error(`Only files on this machine can be transcribed, not ${uri.toString()}.`);
  const options = await askTranscribeOptions(services.context.workspaceState, given(args), {
    chooseAgain: args.chooseOptions === true,
    models: await services.editorJobs.sttModelNames(),
  });
  if (!options) return undefined;
  const target = await chooseOutputFile(besideSource(uri.fsPath, FORMAT_EXTENSIONS[options.format]), args.overwrite, [
    uri.fsPath,
  ]);
  if (!target) return undefined;

  const job = await runWithProgress(services.controller, `Transcribing ${path.basename(uri.fsPath)}`, () =>
    services.editorJobs.createStt({
      file: uri.fsPath,
      language: options.language,
      ...(options.model ? { model: options.model } : {}),
      diarizationEnabled: options.diarization,
      ...(options.diarization && options.speakerCount
        ? { speakerCountMode: 'exact' as const, speakerCount: options.speakerCount }
        : {}),
    }),
  );
  if (!succeeded(job)) return { job };
  const transcriptPath = await services.editorJobs.outputPath(job);
  const transcript = JSON.parse(await readFile(transcriptPath!, 'utf8')) as Transcript;
  const body =
    options.format === 'txt' || options.format === 'json'
      ? renderTranscript(transcript, RENDER_FORMATS[options.format]).body
      : renderSubtitleFile(transcript, options.format);
  await writeFile(target, body, 'utf8');
  await services.outputs.set(job.id, target);
  const output = vscode.Uri.file(target);
  services.log.info(`Transcribed ${uri.fsPath} into ${target}`);
  if (args.open !== false) await vscode.window.showTextDocument(output, { preview: false });
  return { job, output };
}

export function registerTranscribe(services: Services): vscode.Disposable {
  const register = (command: string, chooseOptions: boolean): vscode.Disposable =>
    vscode.commands.registerCommand(command, async (first?: unknown, second?: unknown, third?: unknown) => {
      const uri = first instanceof vscode.Uri ? first : undefined;
      const args = [first, second, third].find(isArgs) ?? {};
      try {
        return await transcribeMediaFile(services, uri, chooseOptions ? { ...args, chooseOptions } : args);
      } catch (error) {
        reportError(services.log, 'Transcription failed', error);
        return undefined;
      }
    });
  return vscode.Disposable.from(
    register('speechStudio.transcribeMediaFile', false),
    register('speechStudio.transcribeMediaFileChooseOptions', true),
  );
}
