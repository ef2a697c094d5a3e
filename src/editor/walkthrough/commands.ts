/**
 * The walkthrough's buttons: each runs the real feature (a narration, an install, a transcription, a
 * subtitle narration) on a sample, or puts a working curl command in a terminal. The steps complete through
 * `WalkthroughProgress` when the work is done, not when a button is pressed.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { totalmem } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { builtinCatalog, entryBytes } from '../../models/catalog';
import { baseUrlOf } from '../commands/local-api';
import type { NarrateResult } from '../commands/narrate-selection';
import { reportError } from '../log';
import type { Services } from '../services';
import { curlLine, speechCurlLine } from './curl-line';
import type { WalkthroughProgress } from './progress';
import { recommendSttModel, recommendVoice } from './recommend';

export const SAMPLE_SENTENCE =
  'Speech Studio speaks on your own machine: no cloud, no account, and nothing to wait for.';

/** Arguments tests pass to skip questions and players. */
export interface WalkthroughArgs {
  /** Install without asking first. */
  confirm?: boolean;
  /** Open the player or the written file (default true). */
  open?: boolean;
}

const megabytes = (bytes: number | null): string => (bytes === null ? 'size unknown' : `${Math.round(bytes / 1e6)} MB`);

/** A folder of the extension's own for the samples (never the user's workspace). */
async function sampleFolder(services: Services): Promise<string> {
  const folder = path.join(services.context.globalStorageUri.fsPath, 'walkthrough');
  await mkdir(folder, { recursive: true });
  return folder;
}

async function hearSample(args: WalkthroughArgs): Promise<NarrateResult | undefined> {
  return vscode.commands.executeCommand<NarrateResult>('speechStudio.narrateSelection', {
    text: SAMPLE_SENTENCE,
    play: args.open !== false,
  });
}

async function installRecommended(
  progress: WalkthroughProgress,
  which: 'voice' | 'stt',
  args: WalkthroughArgs,
): Promise<unknown> {
  const catalog = builtinCatalog().models;
  const language = vscode.env.language;
  const entry =
    which === 'voice' ? recommendVoice(catalog, language) : recommendSttModel(catalog, language, totalmem());
  if (!entry) {
    // No recommendation for this language: the whole catalog, to pick from.
    return vscode.commands.executeCommand('speechStudio.installModel');
  }
  if (args.confirm !== false) {
    const install = `Install (${megabytes(entryBytes(entry))})`;
    const choice = await vscode.window.showInformationMessage(
      `${entry.name}: ${entry.description ?? ''} Licence: ${entry.license}.`.replace(/\s+/g, ' '),
      { modal: true },
      install,
      'Choose Another…',
    );
    if (!choice) return undefined;
    if (choice !== install) return vscode.commands.executeCommand('speechStudio.installModel');
  }
  const result = await vscode.commands.executeCommand('speechStudio.installModel', entry.id);
  progress.checkSoon();
  return result;
}

/** Speaks the sample sentence into a WAV, then transcribes that file: a real round trip through both engines. */
async function transcribeSample(services: Services, args: WalkthroughArgs): Promise<unknown> {
  const spoken = await hearSample({ open: false });
  if (!spoken?.audioPath) return undefined;
  const sample = path.join(await sampleFolder(services), `sample${path.extname(spoken.audioPath)}`);
  await copyFile(spoken.audioPath, sample);
  return vscode.commands.executeCommand('speechStudio.transcribeMediaFile', vscode.Uri.file(sample), {
    format: 'srt',
    language: 'auto',
    diarization: false,
    overwrite: true,
    open: args.open !== false,
  });
}

async function narrateSubtitleSample(services: Services, args: WalkthroughArgs): Promise<unknown> {
  const sample = path.join(await sampleFolder(services), 'sample.srt');
  await copyFile(path.join(services.context.extensionPath, 'media', 'walkthrough', 'sample.srt'), sample);
  const uri = vscode.Uri.file(sample);
  if (args.open !== false) await vscode.window.showTextDocument(uri, { preview: false });
  return vscode.commands.executeCommand('speechStudio.narrateSubtitleFile', uri, { overwrite: true });
}

/** Copies the curl command and types it into a terminal, so one Enter sends the first API request. */
async function tryLocalApi(services: Services, args: WalkthroughArgs): Promise<string | undefined> {
  const url = baseUrlOf(services);
  if (!url) return vscode.commands.executeCommand<undefined>('speechStudio.showBaseUrl');
  // The OpenAI-style one-liner first: the call most tools already make. The job routes are the second step.
  const line = speechCurlLine(url, services.keys.get());
  await vscode.env.clipboard.writeText(line);
  if (args.open !== false) {
    const terminal = vscode.window.createTerminal({ name: 'Speech Studio: Local API' });
    terminal.show();
    terminal.sendText(line, false);
    void vscode.window
      .showInformationMessage(
        'The curl command is in the terminal (and on the clipboard): press Enter to write speech.mp3.',
        'Copy the Job API Command',
      )
      .then((choice) => {
        if (choice)
          void vscode.env.clipboard.writeText(
            curlLine(url, services.keys.get(), services.editorJobs.defaultVoice().voice.id),
          );
      });
  }
  return line;
}

export function registerWalkthroughCommands(services: Services, progress: WalkthroughProgress): vscode.Disposable {
  const command = (id: string, what: string, run: (args: WalkthroughArgs) => Promise<unknown>) =>
    vscode.commands.registerCommand(id, async (args?: WalkthroughArgs) => {
      try {
        return await run(typeof args === 'object' && args !== null ? args : {});
      } catch (error) {
        reportError(services.log, what, error);
        return undefined;
      }
    });
  return vscode.Disposable.from(
    command('speechStudio.walkthrough.hearSample', 'Speaking the sample failed', (args) => hearSample(args)),
    command('speechStudio.walkthrough.installVoice', 'Installing the voice failed', (args) =>
      installRecommended(progress, 'voice', args),
    ),
    command('speechStudio.walkthrough.installSttModel', 'Installing the model failed', (args) =>
      installRecommended(progress, 'stt', args),
    ),
    command('speechStudio.walkthrough.transcribeSample', 'Transcribing the sample failed', (args) =>
      transcribeSample(services, args),
    ),
    command('speechStudio.walkthrough.narrateSubtitleSample', 'Narrating the sample subtitles failed', (args) =>
      narrateSubtitleSample(services, args),
    ),
    command('speechStudio.walkthrough.tryLocalApi', 'Preparing the curl command failed', (args) =>
      tryLocalApi(services, args),
    ),
  );
}
