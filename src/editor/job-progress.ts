/**
 * Runs a job under a progress notification whose Cancel button cancels the job itself (not just the
 * wait): the engine process running it is ended and the job is recorded as cancelled.
 */
import * as vscode from 'vscode';
import type { JobRecord } from '../jobs/types';
import type { LocalServer } from '../host/local-server';
import { untilFinished } from './editor-jobs';
import { progressMessage } from './progress-message';

const PHASES: Record<string, string> = {
  queued: 'Waiting for the engine',
  loading_model: 'Loading the model',
  decoding: 'Decoding the media',
  detecting_language: 'Detecting the language',
  detecting_speech: 'Finding the speech',
  transcribing: 'Transcribing',
  diarizing: 'Finding the speakers',
  punctuating: 'Punctuating',
  synthesizing: 'Synthesizing speech',
  postprocessing: 'Finishing the audio',
  encoding: 'Encoding',
  done: 'Done',
};

export const describePhase = (phase: string | null): string => (phase ? (PHASES[phase] ?? phase) : '');

export interface JobProgressDeps {
  ready(): Promise<LocalServer>;
  onDidChangeJob: vscode.Event<JobRecord>;
}

/**
 * Creates a job with `create` and waits for it under a cancellable notification titled `title`.
 * @returns the finished job: succeeded, failed, cancelled or interrupted.
 */
export function runWithProgress(
  deps: JobProgressDeps,
  title: string,
  create: () => Promise<JobRecord>,
): Promise<JobRecord> {
  return Promise.resolve(
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token) => {
        progress.report({ message: 'Starting…' });
        const job = await create();
        const server = await deps.ready();
        let shown = 0;
        const show = (current: JobRecord): void => {
          const increment = Math.max(0, current.progress - shown);
          shown = Math.max(shown, current.progress);
          progress.report({
            increment,
            message: progressMessage(title, describePhase(current.phase), current.progress),
          });
        };
        const watching = deps.onDidChangeJob((current) => current.id === job.id && show(current));
        const cancel = (): void => {
          // The server of the moment: a restart may have moved a queued job to a new one.
          deps
            .ready()
            .then((current) => current.jobs.cancel(job.id))
            .catch(() => undefined); // finished: nothing to cancel
        };
        const cancelling = token.onCancellationRequested(cancel);
        if (token.isCancellationRequested) cancel();
        try {
          return await untilFinished(deps.onDidChangeJob, () => server.jobs.get(job.id), job.id);
        } finally {
          watching.dispose();
          cancelling.dispose();
        }
      },
    ),
  );
}

/** Throws the job's own sentence when it failed; returns false when it was cancelled or interrupted. */
export function succeeded(job: JobRecord): boolean {
  if (job.status === 'failed') throw new Error(job.error ?? 'The job failed.');
  if (job.status === 'interrupted') throw new Error(job.error ?? 'The job was interrupted.');
  return job.status === 'succeeded';
}

/**
 * Waits for a created job with `finish` under a cancellable notification titled `title` that shows the job's
 * percentage (and its phase, with `withPhase`); Cancel aborts the signal `finish` is given.
 */
export function followJob<T>(
  deps: Pick<JobProgressDeps, 'onDidChangeJob'>,
  job: JobRecord,
  title: string,
  finish: (signal: AbortSignal) => Promise<T>,
  withPhase = false,
): Promise<T> {
  return Promise.resolve(
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        const cancelling = token.onCancellationRequested(() => controller.abort());
        let reported = 0;
        const watching = deps.onDidChangeJob((changed: JobRecord) => {
          if (changed.id !== job.id) return;
          const phase = withPhase && changed.phase ? ` · ${changed.phase}` : '';
          progress.report({
            message: `${Math.floor(changed.progress)}%${phase}`,
            increment: Math.max(0, changed.progress - reported),
          });
          reported = Math.max(reported, changed.progress);
        });
        try {
          return await finish(controller.signal);
        } finally {
          watching.dispose();
          cancelling.dispose();
        }
      },
    ),
  );
}
