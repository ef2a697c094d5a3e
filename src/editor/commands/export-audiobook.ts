/**
 * Export Audiobook…: turns the Markdown manuscript open in the editor (or a chosen file or folder, an .epub,
 * a .docx or a text file) into an M4B with chapters, one MP3 per chapter, or a read-along EPUB 3; for an
 * .epub or .docx the chapters are picked with check boxes (front and back matter unchecked). It is a job
 * of the job core (src/jobs/book-export.ts): it runs in
 * the engine process, shows in the Jobs view, speaks with the workspace lexicon, and Cancel (here or in the
 * Jobs view) cancels the job, which leaves no partial book. Speaker tags use the subtitle narration's
 * speaker-voice setting. With verified takes (the `audiobook.verifyTakes` setting) the paragraphs still
 * over the threshold become Problems with ▶ play (take-problems.ts).
 */
import path from 'node:path';
import * as vscode from 'vscode';
import {
  wordTimingLabel,
  type AcxReport,
  type AudiobookFormat,
  type BookMaster,
  type BookResult,
} from '../../audiobook/book-plan';
import { bookKind, readBook } from '../../audiobook/read-book';
import type { JobStatus } from '../../jobs/types';
import { followJob } from '../job-progress';
import { reportError } from '../log';
import type { Services } from '../services';
import { TakeProblems } from '../audiobook/take-problems';
import { percent } from '../../audiobook/takes-lines';
import type { VerifyRequest } from '../../jobs/verify-admission';
import type { OverlayLevel } from '../../audiobook/read-along/package-plan';

export interface ExportAudiobookArgs {
  /** The manuscript: a .md file or a folder of them; the active Markdown editor's file when absent. */
  input?: string;
  /** The book to write, or with `perChapter` the folder for the chapter MP3s; asked for when absent. */
  out?: string;
  perChapter?: boolean;
  voiceId?: string;
  /** The book's format; from `out`'s extension when absent (.epub: a read-along EPUB 3). */
  format?: AudiobookFormat;
  /** The chapters to read (`3-7,9` or `all`); for an .epub or .docx asked with a pick when absent. */
  chapters?: string;
  /** `acx`: each chapter mastered to Audible's rules (one MP3 per chapter); asked with the format when `out` is absent. */
  master?: BookMaster;
  /** A read-along book's overlays: each sentence (the default) or each word; asked with the format when `out` is absent. */
  overlay?: OverlayLevel;
  /** Verified takes: on (with the settings' threshold and retakes, or these), off; the setting when absent. */
  verify?: boolean | VerifyRequest;
}

export interface ExportAudiobookResult {
  /** The book job's id and how it ended. */
  jobId: string;
  status: JobStatus;
  output: string;
  result: BookResult | null;
  error: string | null;
  /** With verified takes: the Problems set, by file. */
  takeProblems?: Map<string, vscode.Diagnostic[]>;
}

const decibels = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(1)} dB` : 'silence');

/** The ACX compliance of each chapter file, as ffmpeg measured it, for the notification. */
export function acxSummary(reports: readonly AcxReport[] | undefined): string {
  if (!reports?.length) return '';
  const failing = reports.filter((report) => !report.complies);
  const lines = reports.map(
    (report) =>
      `${path.basename(report.file)}: ${report.complies ? 'complies' : 'does not comply'} (RMS ${decibels(report.measured.rmsDb)}, true peak ${decibels(report.measured.truePeakDb)}, noise floor ${decibels(report.measured.noiseFloorDb)})${report.problems.length ? ` ${report.problems.join(' ')}` : ''}`,
  );
  return ` ACX: ${reports.length - failing.length} of ${reports.length} chapters comply. ${lines.join('; ')}.`;
}

/** The verification the export asks for: the command's argument, else the settings. */
function verifyOf(args: ExportAudiobookArgs, settings: ReturnType<Services['settings']>): VerifyRequest | undefined {
  const fromSettings = settings.audiobookVerify;
  const on = args.verify === undefined ? fromSettings.enabled : args.verify !== false;
  if (!on) return undefined;
  const given = typeof args.verify === 'object' ? args.verify : {};
  const threshold = given.threshold ?? fromSettings.threshold;
  return { ...(threshold !== undefined ? { threshold } : {}), retakes: given.retakes ?? fromSettings.retakes };
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
    canSelectFiles: true,
    canSelectFolders: true,
    canSelectMany: false,
    filters: { Books: ['md', 'txt', 'epub', 'docx'] },
  });
  return picked?.[0]?.fsPath;
}

/**
 * For an .epub or .docx, the chapters to read, picked with check boxes (the body chapters checked), as the
 * `3,4,5` list the core takes; `all` for other books; undefined when the pick was dismissed or left empty.
 */
async function chooseChapters(input: string, args: ExportAudiobookArgs): Promise<string | undefined> {
  if (args.chapters !== undefined) return args.chapters;
  if (bookKind(input) === 'manuscript') return 'all';
  const book = await readBook(input);
  const items = book.chapters.map((chapter, index) => ({
    label: chapter.title || `Chapter ${index + 1}`,
    description: chapter.matter && chapter.matter !== 'body' ? `${chapter.matter} matter` : undefined,
    picked: (chapter.matter ?? 'body') === 'body' || book.chapters.every((other) => other.matter !== 'body'),
    number: index + 1,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: `Chapters of ${path.basename(input)} to read`,
    canPickMany: true,
    placeHolder: 'Front and back matter are left out unless checked',
  });
  if (!picked || picked.length === 0) return undefined;
  return picked
    .map((item) => item.number)
    .sort((a, b) => a - b)
    .join(',');
}

interface ExportTarget {
  out: string;
  perChapter: boolean;
  format: AudiobookFormat;
  master?: BookMaster;
  overlay?: OverlayLevel;
}

async function chooseOutput(input: string, args: ExportAudiobookArgs): Promise<ExportTarget | undefined> {
  if (args.out) {
    const perChapter = args.perChapter === true;
    const extension = path.extname(args.out).toLowerCase();
    return {
      out: args.out,
      perChapter,
      format: args.format ?? (perChapter || extension === '.mp3' ? 'mp3' : extension === '.epub' ? 'epub3' : 'm4b'),
      ...(args.master ? { master: args.master } : {}),
      ...(args.overlay ? { overlay: args.overlay } : {}),
    };
  }
  const base = input.replace(/\.(md|txt|epub|docx)$/i, '');
  const kind = await vscode.window.showQuickPick(
    [
      {
        label: 'One M4B with chapters',
        description: 'AAC, a chapter marker per heading',
        perChapter: false,
        readAlong: false,
      },
      { label: 'One MP3 per chapter', description: 'a folder of tagged MP3 files', perChapter: true, readAlong: false },
      {
        label: 'ACX-ready MP3 per chapter',
        description: "mastered to Audible's rules: levels, peaks, room tone, 192 kbps; with a compliance report",
        perChapter: true,
        readAlong: false,
        acx: true,
      },
      {
        label: 'ACX-ready MP3 per chapter, plus an M4B',
        description: 'the same mastered chapters joined into one M4B beside the folder of MP3s (ACX takes the MP3s)',
        perChapter: false,
        readAlong: false,
        acx: true,
      },
      {
        label: 'Read-along EPUB 3',
        description: 'the text with its narration, each sentence highlighted as it is read',
        perChapter: false,
        readAlong: true,
      },
      {
        label: 'Read-along EPUB 3, word by word',
        description: "each word highlighted as it is read (espeak-ng gives word times; other voices' are estimated)",
        perChapter: false,
        readAlong: true,
        words: true,
      },
    ],
    { title: 'Export Audiobook' },
  );
  if (!kind) return undefined;
  if (kind.readAlong) {
    const file = await vscode.window.showSaveDialog({
      title: 'Save the read-along book',
      defaultUri: vscode.Uri.file(`${base}-read-along.epub`),
      filters: { EPUB: ['epub'] },
    });
    const words = 'words' in kind && kind.words === true;
    return file
      ? { out: file.fsPath, perChapter: false, format: 'epub3', ...(words ? { overlay: 'word' as const } : {}) }
      : undefined;
  }
  if (kind.perChapter) {
    const acx = 'acx' in kind && kind.acx === true;
    const folder = await vscode.window.showSaveDialog({
      title: 'Folder for the chapter MP3s',
      defaultUri: vscode.Uri.file(`${base}-${acx ? 'acx' : 'chapters'}`),
    });
    return folder
      ? { out: folder.fsPath, perChapter: true, format: 'mp3', ...(acx ? { master: 'acx' as const } : {}) }
      : undefined;
  }
  if ('acx' in kind && kind.acx === true) {
    const book = await vscode.window.showSaveDialog({
      title: 'Save the M4B (the ACX chapter MP3s go in a folder beside it)',
      defaultUri: vscode.Uri.file(`${base}.m4b`),
      filters: { Audiobook: ['m4b'] },
    });
    return book ? { out: book.fsPath, perChapter: false, format: 'm4b', master: 'acx' } : undefined;
  }
  const file = await vscode.window.showSaveDialog({
    title: 'Save the audiobook',
    defaultUri: vscode.Uri.file(`${base}.m4b`),
    filters: { Audiobook: ['m4b'], MP3: ['mp3'] },
  });
  return file
    ? {
        out: file.fsPath,
        perChapter: false,
        format: path.extname(file.fsPath).toLowerCase() === '.mp3' ? 'mp3' : 'm4b',
      }
    : undefined;
}

export async function exportAudiobook(
  services: Services,
  problems: TakeProblems,
  args: ExportAudiobookArgs = {},
): Promise<ExportAudiobookResult | undefined> {
  const input = await chooseInput(args);
  if (!input) return undefined;
  const chapters = await chooseChapters(input, args);
  if (chapters === undefined) return undefined;
  const target = await chooseOutput(input, args);
  if (!target) return undefined;
  const settings = services.settings();
  const format = target.format;
  const voiceId = args.voiceId ?? (settings.ttsDefaultVoice || undefined);
  const verify = verifyOf(args, settings);
  services.log.info(`Exporting the audiobook ${input} to ${target.out}`);
  const job = await services.editorJobs.createBook({
    input,
    out: target.out,
    format,
    perChapter: target.perChapter,
    speakers: settings.ttsSpeakerVoices,
    chapters,
    ...(voiceId ? { voiceId } : {}),
    ...(verify ? { verify } : {}),
    ...(target.master ? { master: target.master } : {}),
    ...(target.overlay ? { overlay: target.overlay } : {}),
  });

  const ended = await followJob(
    services.controller,
    job,
    `Exporting ${path.basename(target.out)}`,
    (signal) => services.editorJobs.finishBook(job, signal),
    true,
  );
  const { job: finished, result } = ended;
  let takeProblems: Map<string, vscode.Diagnostic[]> | undefined;
  if (finished.status === 'succeeded' && result) {
    const verified = result.verify;
    if (verified) takeProblems = await problems.show(input, target.out, verified);
    const takes = verified
      ? ` Verified takes: ${verified.retaken.length} paragraphs retaken, ${verified.stillBad.length} still over ${percent(verified.threshold)} WER${verified.stillBad.length ? ' (see Problems)' : ''}.`
      : '';
    const words = result.wordTimes ? ` Word overlays: word times ${wordTimingLabel(result.wordTimes)}.` : '';
    const summary = `${result.synthesized} paragraphs synthesized, ${result.reused} from the cache.${words}${takes}${acxSummary(result.acx)}`;
    void vscode.window
      .showInformationMessage(
        `Wrote ${path.basename(target.out)}. ${summary}`,
        'Reveal',
        ...(verified ? ['Open Takes Report'] : []),
      )
      .then((choice) => {
        if (choice === 'Reveal') void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(target.out));
        if (choice === 'Open Takes Report' && verified)
          void vscode.window.showTextDocument(vscode.Uri.file(verified.textFile));
      });
  } else if (finished.status === 'cancelled') {
    void vscode.window.showInformationMessage('Audiobook export cancelled; no book was written.');
  } else {
    void vscode.window.showErrorMessage(`The audiobook export failed: ${finished.error ?? finished.status}`);
  }
  return {
    jobId: finished.id,
    status: finished.status,
    output: target.out,
    result,
    error: finished.error,
    ...(takeProblems ? { takeProblems } : {}),
  };
}

export function registerExportAudiobook(services: Services): vscode.Disposable {
  const problems = new TakeProblems(services.player);
  const command = vscode.commands.registerCommand(
    'speechStudio.exportAudiobook',
    async (args?: ExportAudiobookArgs | vscode.Uri) => {
      try {
        // From the explorer's context menu the argument is the clicked file or folder.
        const given: ExportAudiobookArgs = args instanceof vscode.Uri ? { input: args.fsPath } : (args ?? {});
        return await exportAudiobook(services, problems, given);
      } catch (error) {
        reportError(services.log, 'The audiobook export failed', error);
        return undefined;
      }
    },
  );
  return vscode.Disposable.from(problems, command);
}
