/**
 * Dub Media…: dubs a video into another language as a job of the job core (src/jobs/dub-job.ts): it is
 * transcribed with diarization (or its subtitles are taken), translated by the local language model, each
 * speaker spoken by a library voice, mixed and muxed into a copy beside it (`talk.mp4` → `talk.de.mp4`). It
 * runs in an engine process, shows in the Jobs view, and Cancel (here or there) leaves no partial file. The
 * report (voices, cues that did not fit) goes to the log and a summary to a notification.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { dubReportLines } from '../../engine-api/dub-report';
import type { DubMix, DubResult } from '../../engine-api/dub-types';
import { dubbedName } from '../../jobs/dub-job';
import type { JobStatus } from '../../jobs/types';
import { followJob } from '../job-progress';
import { reportError } from '../log';
import type { Services } from '../services';
import { readSubtitleCheckSetting } from '../subtitles/style-setting';

export interface DubMediaArgs {
  /** The video; chosen in a dialog when absent. */
  input?: string;
  /** A language tag such as de; asked for when absent. */
  to?: string;
  from?: string;
  /** Subtitles to dub from instead of transcribing; `talk.srt`/`talk.vtt` beside the video is offered when absent. */
  subtitles?: string;
  /** Default: asked for (duck first). */
  mix?: DubMix;
  out?: string;
  model?: string;
}

export interface DubMediaResult {
  jobId: string;
  status: JobStatus;
  output: string;
  result: DubResult | null;
  error: string | null;
}

const VIDEO_EXTENSIONS = ['mp4', 'm4v', 'mov', 'mkv', 'webm'];

async function chooseVideo(args: DubMediaArgs): Promise<string | undefined> {
  if (args.input) return args.input;
  const picked = await vscode.window.showOpenDialog({
    title: 'Video to dub',
    canSelectMany: false,
    filters: { Video: VIDEO_EXTENSIONS },
  });
  return picked?.[0]?.fsPath;
}

async function chooseLanguage(args: DubMediaArgs): Promise<string | undefined> {
  if (args.to) return args.to;
  const typed = await vscode.window.showInputBox({
    title: 'Dub Media',
    prompt: 'The language to dub into, as a tag (de, fr, es, pt-BR, ja…)',
    placeHolder: 'de',
    validateInput: (value) =>
      /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(value.trim()) ? undefined : 'A language tag such as de or pt-BR',
  });
  return typed?.trim() || undefined;
}

async function chooseMix(args: DubMediaArgs): Promise<DubMix | undefined> {
  if (args.mix) return args.mix;
  const picked = await vscode.window.showQuickPick(
    [
      {
        label: 'Duck the original',
        description: 'the original sound stays, lowered while the dub speaks',
        mix: 'duck' as const,
      },
      { label: 'Replace the original', description: 'only the dub is heard on the new track', mix: 'replace' as const },
    ],
    { title: 'Dub Media: the new audio track' },
  );
  return picked?.mix;
}

export async function dubMedia(services: Services, args: DubMediaArgs = {}): Promise<DubMediaResult | undefined> {
  const input = await chooseVideo(args);
  if (!input) return undefined;
  const to = await chooseLanguage(args);
  if (!to) return undefined;
  const mix = await chooseMix(args);
  if (!mix) return undefined;
  const out = args.out ?? dubbedName(input, to);
  const { style } = readSubtitleCheckSetting(vscode.Uri.file(input));
  services.log.info(`Dubbing ${input} into ${to} (${mix}), to ${out}`);
  const job = await services.editorJobs.createDub({
    input,
    out,
    to,
    mix,
    style,
    ...(args.from ? { from: args.from } : {}),
    ...(args.subtitles ? { subtitles: args.subtitles } : {}),
    ...(args.model ? { model: args.model } : {}),
  });
  const { job: finished, result } = await followJob(
    services.controller,
    job,
    `Dubbing ${path.basename(input)} into ${to}`,
    (signal) => services.editorJobs.finishDub(job, signal),
  );
  if (finished.status === 'succeeded' && result) {
    for (const line of dubReportLines(result)) services.log.info(`Dub ${path.basename(out)}: ${line}`);
    const fit = result.overruns.length
      ? `${result.overruns.length} cue(s) did not fit their time (see the log)`
      : 'every cue fits its time';
    void vscode.window
      .showInformationMessage(
        `Dubbed ${result.cues} cues into ${path.basename(out)}: ${result.speakers.length} speaker(s), ${fit}.`,
        'Reveal',
      )
      .then((choice) => {
        if (choice) void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(out));
      });
  } else if (finished.status === 'cancelled') {
    void vscode.window.showInformationMessage('Dub cancelled; no file was written.');
  } else {
    void vscode.window.showErrorMessage(`The dub failed: ${finished.error ?? finished.status}`);
  }
  return { jobId: finished.id, status: finished.status, output: out, result, error: finished.error };
}

export function registerDubMedia(services: Services): vscode.Disposable {
  return vscode.commands.registerCommand('speechStudio.dubMedia', async (args?: DubMediaArgs | vscode.Uri) => {
    try {
      // From the explorer's context menu the argument is the clicked file.
      const given: DubMediaArgs = args instanceof vscode.Uri ? { input: args.fsPath } : (args ?? {});
      return await dubMedia(services, given);
    } catch (error) {
      reportError(services.log, 'The dub failed', error);
      return undefined;
    }
  });
}
