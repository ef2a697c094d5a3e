/**
 * "Speech Studio: Re-transcribe Cue(s)": transcribes again only the media under the cues the selections
 * touch (one STT job per run of consecutive cues, cropped to it, through the editor's job core) and
 * replaces those cues' text with the words recognized in each cue's time, as one undoable edit.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import type { JobRecord } from '../../jobs/types';
import { cuesInLines, replaceCueTexts, spansOf, type CueSpan, type TimedWord } from '../../subtitles/retranscribe';
import type { TextEdit } from '../../subtitles/edits';
import type { Transcript } from '../../subtitles/types';
import { rememberedOptions } from '../commands/transcribe-options';
import { runWithProgress, succeeded } from '../job-progress';
import { reportError } from '../log';
import type { Services } from '../services';
import { activeSubtitle } from './active-subtitle';
import { mediaForSubtitle } from './cue-media';
import { toWorkspaceEdit } from './quick-fixes';
import { readSubtitleCheckSetting } from './style-setting';

export const RETRANSCRIBE_CUES_COMMAND = 'speechStudio.retranscribeCues';

/** Arguments a caller (or a test) may pass. */
export interface RetranscribeArgs {
  /** `auto` or a language code; default: the language Transcribe Media File last used. */
  language?: string;
  /** The cues to re-transcribe, by position from 1 (a quick fix's cue); default: those the selections touch. */
  cues?: number[];
}

export interface RetranscribeResult {
  /** One job a span, in time order. */
  jobs: JobRecord[];
  spans: CueSpan[];
  /** The words each span's job recognized, as the transcript timed them. */
  words: TimedWord[][];
  replaced: number[];
  /** Cues the recognizer found no words for: their text stayed. */
  empty: number[];
  applied: boolean;
}

const isArgs = (value: unknown): value is RetranscribeArgs =>
  typeof value === 'object' && value !== null && !(value instanceof vscode.Uri);

/** The lines (from 1) each selection covers; a selection ending at the start of a line does not take that line. */
function selectedLines(editor: vscode.TextEditor): Array<{ first: number; last: number }> {
  return editor.selections.map((selection) => {
    const last =
      selection.end.character === 0 && selection.end.line > selection.start.line
        ? selection.end.line - 1
        : selection.end.line;
    return { first: selection.start.line + 1, last: last + 1 };
  });
}

function cueList(cues: readonly number[]): string {
  if (cues.length === 1) return `cue ${cues[0]}`;
  const consecutive = cues.every((cue, i) => i === 0 || cue === cues[i - 1] + 1);
  return consecutive ? `cues ${cues[0]}–${cues[cues.length - 1]}` : `cues ${cues.join(', ')}`;
}

async function transcribeSpan(
  services: Services,
  media: vscode.Uri,
  span: CueSpan,
  language: string,
  title: string,
): Promise<{ job: JobRecord; words?: TimedWord[] }> {
  const job = await runWithProgress(services.controller, title, () =>
    services.editorJobs.createStt({
      file: media.fsPath,
      language,
      diarizationEnabled: false,
      cropStartSeconds: span.cropStartSeconds,
      cropEndSeconds: span.cropEndSeconds,
    }),
  );
  if (!succeeded(job)) return { job };
  const transcript = JSON.parse(await readFile((await services.editorJobs.outputPath(job))!, 'utf8')) as Transcript;
  return { job, words: transcript.segments.flatMap((segment) => segment.words) };
}

export async function retranscribeCues(
  services: Services,
  args: RetranscribeArgs = {},
): Promise<RetranscribeResult | undefined> {
  const active = activeSubtitle('re-transcribe its cues');
  if (!active) return undefined;
  const { editor, document, format } = active;
  const source = document.getText();
  const version = document.version;
  const cues = args.cues?.length
    ? [...args.cues].sort((a, b) => a - b)
    : cuesInLines(source, format, selectedLines(editor));
  if (cues.length === 0) {
    void vscode.window.showWarningMessage('Put the cursor in a cue, or select the cues to re-transcribe.');
    return undefined;
  }
  const media = await mediaForSubtitle(services.context, document.uri);
  if (!media) return undefined;
  if (media.scheme !== 'file')
    throw new Error(`Only media files on this machine can be transcribed, not ${media.toString()}.`);
  const language = args.language ?? rememberedOptions(services.context.workspaceState)?.language ?? 'auto';
  const spans = spansOf(source, format, cues);

  const jobs: JobRecord[] = [];
  const words: TimedWord[][] = [];
  for (const span of spans) {
    const title = `Re-transcribing ${cueList(span.cues)} of ${path.basename(document.uri.fsPath)}`;
    const done = await transcribeSpan(services, media, span, language, title);
    jobs.push(done.job);
    if (!done.words) return undefined; // cancelled or interrupted: nothing is replaced
    words.push(done.words);
  }
  if (document.version !== version) {
    void vscode.window.showWarningMessage(
      'The subtitle file changed while its cues were transcribed; nothing was replaced. Run Re-transcribe Cue(s) again.',
    );
    return { jobs, spans, words, replaced: [], empty: [], applied: false };
  }

  const style = readSubtitleCheckSetting(document.uri).style;
  const edits: TextEdit[] = [];
  const replaced: number[] = [];
  const empty: number[] = [];
  spans.forEach((span, i) => {
    const outcome = replaceCueTexts(source, format, style, span, words[i]);
    edits.push(...outcome.edits);
    replaced.push(...outcome.replaced);
    empty.push(...outcome.empty);
  });
  const applied = edits.length > 0 && (await vscode.workspace.applyEdit(toWorkspaceEdit(document, edits)));
  const summary =
    `Re-transcribed ${replaced.length} of ${cues.length} cue${cues.length === 1 ? '' : 's'}` +
    (empty.length > 0
      ? `; no words were recognized in ${cueList(empty)}, which kept ${empty.length === 1 ? 'its' : 'their'} text.`
      : '.');
  services.log.info(`${summary} (${document.uri.fsPath}, jobs ${jobs.map((job) => job.id).join(', ')})`);
  void vscode.window.showInformationMessage(summary);
  return { jobs, spans, words, replaced, empty, applied };
}

export function registerRetranscribeCues(services: Services): vscode.Disposable {
  return vscode.commands.registerCommand(RETRANSCRIBE_CUES_COMMAND, async (...given: unknown[]) => {
    try {
      return await retranscribeCues(services, given.find(isArgs));
    } catch (error) {
      reportError(services.log, 'Re-transcribing the cues failed', error);
      return undefined;
    }
  });
}
