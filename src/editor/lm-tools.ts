/**
 * The speech tools as VS Code language-model tools (declared in package.json `languageModelTools`), so an
 * agent in the editor can list voices, transcribe a workspace file and narrate text. They run editor jobs
 * (the Jobs view shows them); writing a file beside the source is confirmed by the user first.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import { renderTranscript, type Transcript } from '../subtitles/render';
import type { TranscriptFormat } from '../contract/openapi';
import { isActive, ttsResultOf, type JobRecord } from '../jobs/types';
import { untilFinished } from './editor-jobs';
import type { Services } from './services';
import { confineInput, confineOutput, writeConfined } from '../local-files/confined-paths';

export const LM_TOOL_NAMES = {
  listVoices: 'speechStudio_listVoices',
  transcribe: 'speechStudio_transcribe',
  narrate: 'speechStudio_narrate',
} as const;

interface ListVoicesInput {
  search?: string;
  languageCode?: string;
  limit?: number;
}
interface TranscribeInput {
  path: string;
  format?: TranscriptFormat;
  language?: string;
  writeBeside?: boolean;
  overwrite?: boolean;
}
interface NarrateInput {
  text: string;
  voiceId?: string;
  outputPath?: string;
  overwrite?: boolean;
}

const text = (value: string): vscode.LanguageModelToolResult =>
  new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(value)]);
const EXTENSIONS: Record<TranscriptFormat, string> = {
  txt: 'txt',
  srt: 'srt',
  vtt: 'vtt',
  'json-simple': 'json',
  'json-full': 'json',
};

/** The folders an agent's paths must lie in: the open workspace's (the same rule as the MCP tools'). */
const workspaceFolders = (): string[] =>
  (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => folder.uri.fsPath);

/** A workspace-relative or absolute path, resolved against the first workspace folder. */
function resolvePath(given: string): string {
  if (path.isAbsolute(given)) return given;
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error(`"${given}" is relative and no folder is open; give an absolute path.`);
  return path.join(folder.uri.fsPath, given);
}

async function finished(services: Services, job: JobRecord, token: vscode.CancellationToken): Promise<JobRecord> {
  const cancel = token.onCancellationRequested(() => {
    void services.controller
      .ready()
      .then(({ jobs }) => (isActive(jobs.get(job.id)?.status ?? 'succeeded') ? jobs.cancel(job.id) : undefined))
      .catch(() => undefined);
  });
  try {
    const server = await services.controller.ready();
    const done = await untilFinished(
      (listener) => services.controller.onDidChangeJob(listener),
      () => server.jobs.get(job.id),
      job.id,
    );
    if (done.status !== 'succeeded') throw new Error(`The job ${done.status}${done.error ? `: ${done.error}` : '.'}`);
    return done;
  } finally {
    cancel.dispose();
  }
}

export function registerLanguageModelTools(services: Services): vscode.Disposable {
  if (!vscode.lm?.registerTool) return new vscode.Disposable(() => undefined);
  const listVoices: vscode.LanguageModelTool<ListVoicesInput> = {
    invoke: async ({ input }) => {
      const page = services.voices.list({
        search: input.search,
        languageCode: input.languageCode,
        scope: 'all',
        sortBy: 'name',
        sortDirection: 'asc',
        page: 1,
        limit: Math.min(100, input.limit ?? 20),
      });
      return text(
        JSON.stringify(
          page.items.map(({ id, name, languageCode, gender, availability }) => ({
            id,
            name,
            languageCode,
            gender,
            availability,
          })),
        ),
      );
    },
  };

  const transcribe: vscode.LanguageModelTool<TranscribeInput> = {
    prepareInvocation: ({ input }) => {
      const format = input.format ?? 'txt';
      const file = path.basename(input.path);
      return input.writeBeside
        ? {
            invocationMessage: `Transcribing ${file}`,
            confirmationMessages: {
              title: 'Write a transcript?',
              message: `Transcribe ${file} and write the ${format} transcript beside it?`,
            },
          }
        : { invocationMessage: `Transcribing ${file}` };
    },
    invoke: async ({ input }, token) => {
      const media = (await confineInput(resolvePath(input.path), workspaceFolders(), 'path')).path;
      const format = input.format ?? 'txt';
      const beside = path.join(path.dirname(media), `${path.parse(media).name}.${EXTENSIONS[format]}`);
      if (input.writeBeside) await confineOutput(beside, workspaceFolders(), input.overwrite ?? false);
      const job = await finished(
        services,
        await services.editorJobs.createStt({ file: media, language: input.language, diarizationEnabled: false }),
        token,
      );
      const transcript = JSON.parse(await readFile((await services.editorJobs.outputPath(job))!, 'utf8')) as Transcript;
      const body = renderTranscript(transcript, format).body;
      if (input.writeBeside) {
        await writeConfined(beside, workspaceFolders(), body, { overwrite: input.overwrite ?? false });
        return text(`Wrote ${beside}:\n${body}`);
      }
      return text(body);
    },
  };

  const narrate: vscode.LanguageModelTool<NarrateInput> = {
    prepareInvocation: ({ input }) =>
      input.outputPath
        ? {
            invocationMessage: 'Narrating text',
            confirmationMessages: {
              title: 'Write an audio file?',
              message: `Narrate ${input.text.length} characters into ${input.outputPath}?`,
            },
          }
        : { invocationMessage: 'Narrating text' },
    invoke: async ({ input }, token) => {
      const target = input.outputPath ? resolvePath(input.outputPath) : undefined;
      if (target) await confineOutput(target, workspaceFolders(), input.overwrite ?? false);
      const outputFormat =
        input.outputPath && ['mp3', 'aac', 'flac'].includes(path.extname(input.outputPath).slice(1))
          ? (path.extname(input.outputPath).slice(1) as 'mp3')
          : 'wav';
      const job = await finished(
        services,
        await services.editorJobs.createTts({ text: input.text, voiceId: input.voiceId, outputFormat }),
        token,
      );
      const audio = (await services.editorJobs.outputPath(job))!;
      if (target) {
        await writeConfined(target, workspaceFolders(), { copyFrom: audio }, { overwrite: input.overwrite ?? false });
        return text(`Wrote ${target} (${ttsResultOf(job)?.durationSeconds} s of speech, job ${job.id}).`);
      }
      return text(`The audio is at ${audio} (${ttsResultOf(job)?.durationSeconds} s of speech, job ${job.id}).`);
    },
  };

  return vscode.Disposable.from(
    vscode.lm.registerTool(LM_TOOL_NAMES.listVoices, listVoices),
    vscode.lm.registerTool(LM_TOOL_NAMES.transcribe, transcribe),
    vscode.lm.registerTool(LM_TOOL_NAMES.narrate, narrate),
  );
}
