/**
 * Export Audiobook…: turns the Markdown manuscript open in the editor (or a chosen file or folder) into an
 * M4B with chapters, or one MP3 per chapter, by running the CLI's `audiobook` command as a child process:
 * synthesis and encoding stay out of the extension host, progress comes from its lines, and Cancel ends it
 * with Ctrl+C's signal, which leaves no partial book. Speaker tags use the subtitle narration's
 * speaker-voice setting.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import * as vscode from 'vscode';
import { FFMPEG_ENV } from '../../engine/media/ffmpeg';
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
  exitCode: number | null;
  output: string;
  /** What the export printed, line by line. */
  lines: string[];
}

const PROGRESS = /^Chapter (\d+)\/(\d+) ".*": (\d+)%$/;
const DONE = /^Chapter (\d+)\/(\d+) ".*": done/;

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
  const speakers = Object.entries(settings.ttsSpeakerVoices).map(([name, voice]) => `${name}=${voice}`).join(',');
  const voice = args.voiceId ?? settings.ttsDefaultVoice;
  const cli = path.join(services.context.extensionPath, 'dist', 'cli.js');
  const argv = [
    cli, 'audiobook', input, '--out', target.out, '--data-dir', services.controller.dataDir,
    ...(voice ? ['--voice', voice] : []), ...(speakers ? ['--speakers', speakers] : []), ...(target.perChapter ? ['--per-chapter'] : []),
  ];
  const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
  if (settings.ffmpegPath) env[FFMPEG_ENV] = settings.ffmpegPath;
  services.log.info(`Exporting the audiobook ${input} to ${target.out}`);

  const lines: string[] = [];
  const errors: string[] = [];
  const exitCode = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Exporting ${path.basename(target.out)}`, cancellable: true },
    (progress, token) =>
      new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
        token.onCancellationRequested(() => child.kill('SIGINT'));
        let reported = 0;
        createInterface({ input: child.stdout }).on('line', (line) => {
          lines.push(line);
          services.log.info(`audiobook: ${line}`);
          const match = PROGRESS.exec(line) ?? DONE.exec(line);
          if (!match) return progress.report({ message: line });
          const [chapter, chapters] = [Number(match[1]), Number(match[2])];
          const within = match[3] === undefined ? 100 : Number(match[3]);
          const overall = ((chapter - 1 + within / 100) / chapters) * 100;
          progress.report({ message: line, increment: Math.max(0, overall - reported) });
          reported = Math.max(reported, overall);
        });
        createInterface({ input: child.stderr }).on('line', (line) => {
          errors.push(line);
          services.log.warn(`audiobook: ${line}`);
        });
        child.once('error', reject);
        child.once('close', (code) => resolve(code));
      }),
  );
  if (exitCode === 0) {
    const summary = lines.find((line) => /paragraphs synthesized/.test(line)) ?? '';
    void vscode.window.showInformationMessage(`Wrote ${path.basename(target.out)}. ${summary}`, 'Reveal').then((choice) => {
      if (choice) void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(target.out));
    });
  } else if (exitCode === 130) {
    void vscode.window.showInformationMessage('Audiobook export cancelled; no book was written.');
  } else {
    void vscode.window.showErrorMessage(`The audiobook export failed: ${errors.at(-1) ?? `exit code ${exitCode}`}`);
  }
  return { exitCode, output: target.out, lines };
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
