/**
 * Proof-Listen Document: narrates the document (or the selection) with the default voice and the workspace
 * lexicon, transcribes the narration through the same core, aligns what was heard with what is written
 * (src/proof-listen/) and shows the differences as Problems. One progress notification covers both jobs;
 * its Cancel cancels whichever runs and starts no other.
 */
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { hasSttModel, installedSttModels } from '../../jobs/admission';
import type { JobRecord } from '../../jobs/types';
import { proofListen, type ProofListenReport } from '../../proof-listen/findings';
import { sourceWords } from '../../proof-listen/spoken-words';
import { readingKind } from '../../text/reading-sentences';
import type { Transcript } from '../../subtitles/types';
import { installModel } from '../commands/install-model';
import { untilFinished } from '../editor-jobs';
import { describePhase } from '../job-progress';
import { progressMessage } from '../progress-message';
import { reportError } from '../log';
import type { Services } from '../services';
import type { ProofListenProblems } from './problems';

export const PROOF_LISTEN_COMMAND = 'speechStudio.proofListenDocument';
/** The Local API's limit on a TTS text. */
const MAX_TEXT = 100_000;

export interface ProofListenResult extends ProofListenReport {
  /** The narration (TTS) and transcription (STT) jobs, as far as they got. */
  jobs: JobRecord[];
  /** The narration's audio, when it was transcribed. */
  narration?: string;
  diagnostics: vscode.Diagnostic[];
}

/** The installed STT model, or one sentence saying there is none with an offer to install one. */
async function hasRecognizer(services: Services): Promise<boolean> {
  if (hasSttModel(await installedSttModels(services.controller.dataDir))) return true;
  const install = 'Install Model';
  const answer = await vscode.window.showInformationMessage(
    'Proof-listening transcribes the narration, and needs a speech-to-text model, which is not installed.',
    install,
  );
  if (answer === install) await installModel(services);
  return false;
}

/**
 * Runs the jobs `steps` create one after the other under one cancellable notification; stops at the first
 * that does not succeed. Returns every job created.
 */
function runSteps(
  services: Services,
  title: string,
  steps: Array<{ label: string; create: (previous: JobRecord[]) => Promise<JobRecord> }>,
): Promise<JobRecord[]> {
  return Promise.resolve(
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token) => {
        const jobs: JobRecord[] = [];
        let current: string | undefined;
        const cancel = (): void => {
          if (current)
            services.controller
              .ready()
              .then((server) => server.jobs.cancel(current!))
              .catch(() => undefined); // finished: nothing to cancel
        };
        const cancelling = token.onCancellationRequested(cancel);
        try {
          for (const [index, step] of steps.entries()) {
            if (token.isCancellationRequested) break;
            progress.report({ message: `${step.label}: starting…` });
            const job = await step.create(jobs);
            current = job.id;
            if (token.isCancellationRequested) cancel();
            const server = await services.controller.ready();
            const watching = services.controller.onDidChangeJob((changed) => {
              if (changed.id !== job.id) return;
              const share = 100 / steps.length;
              progress.report({
                message: `${step.label}: ${progressMessage(step.label, describePhase(changed.phase), index * share + (changed.progress * share) / 100)}`,
              });
            });
            try {
              const done = await untilFinished(
                services.controller.onDidChangeJob,
                () => server.jobs.get(job.id),
                job.id,
              );
              jobs.push(done);
              if (done.status !== 'succeeded') break;
            } finally {
              watching.dispose();
            }
          }
          return jobs;
        } finally {
          cancelling.dispose();
        }
      },
    ),
  );
}

export async function proofListenDocument(
  services: Services,
  problems: ProofListenProblems,
): Promise<ProofListenResult | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage('Open a document to proof-listen it.');
    return undefined;
  }
  if (!(await hasRecognizer(services))) return undefined;
  const { document, selection } = editor;
  const source = document.getText();
  const kind = readingKind(document.languageId);
  const from = selection.isEmpty ? 0 : document.offsetAt(selection.start);
  const to = selection.isEmpty ? source.length : document.offsetAt(selection.end);
  const voice = services.editorJobs.defaultVoice().voice;
  const { narration: text } = sourceWords(source, kind, document.languageId, voice.languageCode, from, to);
  if (!text.trim()) {
    void vscode.window.showInformationMessage('There is nothing to read aloud here.');
    return undefined;
  }
  if (text.length > MAX_TEXT) {
    void vscode.window.showWarningMessage(
      `The text to narrate is ${text.length} characters, more than the ${MAX_TEXT} one narration takes: select a part and proof-listen that.`,
    );
    return undefined;
  }
  const version = document.version;
  const jobs = await runSteps(services, 'Proof-listening', [
    { label: 'Narrating', create: () => services.editorJobs.createTts({ text, voiceId: voice.id }) },
    {
      label: 'Transcribing',
      create: async ([tts]) =>
        services.editorJobs.createStt({
          file: (await services.editorJobs.outputPath(tts))!,
          language: voice.languageCode.split('-')[0].toLowerCase(),
          diarizationEnabled: false,
        }),
    },
  ]);
  const failed = jobs.find((job) => job.status === 'failed' || job.status === 'interrupted');
  if (failed)
    throw new Error(failed.error ?? `The ${failed.kind === 'tts' ? 'narration' : 'transcription'} ${failed.status}.`);
  const empty = { findings: [], sourceTokens: 0, matched: 0, heardTokens: 0, jobs, diagnostics: [] };
  if (jobs.length < 2 || jobs[1].status !== 'succeeded') return empty;
  const [tts, stt] = jobs;
  if (document.version !== version) {
    void vscode.window.showInformationMessage(
      'The document changed while it was narrated: run Proof-Listen Document again.',
    );
    return empty;
  }
  const transcript = JSON.parse(await readFile((await services.editorJobs.outputPath(stt))!, 'utf8')) as Transcript;
  const report = proofListen(
    source,
    kind,
    document.languageId,
    voice.languageCode,
    transcript.segments.flatMap((s) => s.words),
    { from, to },
  );
  const narration = (await services.editorJobs.outputPath(tts))!;
  const diagnostics = problems.show(
    document,
    { file: narration, duration: transcript.durationSeconds },
    report.findings,
  );
  const summary = `Proof-listen: ${report.matched} of ${report.sourceTokens} words heard as written; ${report.findings.length} difference${report.findings.length === 1 ? '' : 's'} in Problems.`;
  services.log.info(`${summary} (${document.uri.toString()})`);
  const showProblems = 'Show Problems';
  void vscode.window
    .showInformationMessage(summary, ...(report.findings.length > 0 ? [showProblems] : []))
    .then((choice) => {
      if (choice === showProblems) void vscode.commands.executeCommand('workbench.actions.view.problems');
    });
  return { ...report, jobs, narration, diagnostics };
}

export function registerProofListen(services: Services, problems: ProofListenProblems): vscode.Disposable {
  return vscode.commands.registerCommand(PROOF_LISTEN_COMMAND, async () => {
    try {
      return await proofListenDocument(services, problems);
    } catch (error) {
      reportError(services.log, 'Proof-listening failed', error);
      return undefined;
    }
  });
}
