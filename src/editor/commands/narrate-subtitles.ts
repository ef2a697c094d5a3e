/**
 * Narrate Subtitle File: speaks an SRT or WebVTT file in time with its cues, writes the narration beside
 * it (`talk.srt` → `talk.narration.wav`, never over `talk.wav`, the recording the subtitles belong to), and
 * shows the cues whose speech overran their time as problems on the subtitle file.
 */
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import { ttsResultOf, type JobRecord } from '../../jobs/types';
import type { EditorTtsRequest } from '../editor-jobs';
import { runWithProgress, succeeded } from '../job-progress';
import { reportError } from '../log';
import { besideSource, chooseOutputFile } from '../output-target';
import type { Services } from '../services';
import { fitDiagnostics, overrunCues, readProblem } from '../subtitle-fit';
import { mediaForSubtitle } from '../subtitles/cue-media';

/** The narration's own name: Play Cue, the timeline, Snap and Re-transcribe find the recording by `talk.<media>`. */
export const NARRATION_SUFFIX = '.narration.wav';

export interface NarrateSubtitlesArgs {
  voiceId?: string;
  overwrite?: boolean;
}

export interface NarrateSubtitlesResult {
  job: JobRecord;
  output?: vscode.Uri;
  overruns: number;
}

export async function narrateSubtitleFile(
  services: Services,
  diagnostics: vscode.DiagnosticCollection,
  uri: vscode.Uri | undefined,
  args: NarrateSubtitlesArgs = {},
): Promise<NarrateSubtitlesResult | undefined> {
  const target = uri ?? vscode.window.activeTextEditor?.document.uri;
  const extension = target ? path.extname(target.fsPath).toLowerCase() : '';
  if (!target || (extension !== '.srt' && extension !== '.vtt')) {
    void vscode.window.showInformationMessage('Open or right-click an .srt or .vtt file to narrate it.');
    return undefined;
  }
  const document = await vscode.workspace.openTextDocument(target);
  const format = extension === '.srt' ? 'srt' : 'vtt';
  const problem = readProblem(document, format);
  diagnostics.set(target, problem ? [problem] : []);
  const request: EditorTtsRequest = {
    text: document.getText(),
    inputFormat: format,
    voiceId: args.voiceId,
    speakerVoices: services.settings().ttsSpeakerVoices,
  };
  // Refused as the Local API refuses it (the Problems panel shows where the reader stopped), before asking where to save.
  services.editorJobs.admitTts(request);
  const recording = await mediaForSubtitle(services.context, target, false);
  const outputFile = await chooseOutputFile(
    besideSource(target.fsPath, NARRATION_SUFFIX),
    args.overwrite,
    recording ? [recording.fsPath] : [],
  );
  if (!outputFile) return undefined;
  const job = await runWithProgress(services.controller, `Narrating ${path.basename(target.fsPath)}`, () =>
    services.editorJobs.createTts(request),
  );
  if (!succeeded(job)) return { job, overruns: 0 };
  await copyFile((await services.editorJobs.outputPath(job))!, outputFile);
  await services.outputs.set(job.id, outputFile);
  const problems = fitDiagnostics(document, format, overrunCues(ttsResultOf(job)));
  diagnostics.set(target, problems);
  services.log.info(`Narrated ${target.fsPath} into ${outputFile}; ${problems.length} cue(s) overran.`);
  const summary =
    problems.length > 0
      ? `${problems.length} cue(s) overran their time: see the Problems panel.`
      : 'Every cue fits its time.';
  void vscode.window
    .showInformationMessage(`The narration is in ${path.basename(outputFile)}. ${summary}`, 'Play')
    .then((choice) => {
      if (choice) services.player.play(outputFile, path.basename(outputFile));
    });
  return { job, output: vscode.Uri.file(outputFile), overruns: problems.length };
}

export function registerNarrateSubtitles(services: Services): vscode.Disposable {
  const diagnostics = vscode.languages.createDiagnosticCollection('speechStudio.subtitleFit');
  return vscode.Disposable.from(
    diagnostics,
    vscode.workspace.onDidChangeTextDocument(
      (event) =>
        diagnostics.has(event.document.uri) &&
        event.contentChanges.length > 0 &&
        diagnostics.delete(event.document.uri),
    ),
    vscode.commands.registerCommand('speechStudio.narrateSubtitleFile', async (first?: unknown, second?: unknown) => {
      const uri = first instanceof vscode.Uri ? first : undefined;
      const args = [first, second].find(
        (a): a is NarrateSubtitlesArgs =>
          typeof a === 'object' && a !== null && !(a instanceof vscode.Uri) && !Array.isArray(a),
      );
      try {
        return await narrateSubtitleFile(services, diagnostics, uri, args);
      } catch (error) {
        reportError(services.log, 'Narrating the subtitles failed', error);
        return undefined;
      }
    }),
  );
}
