/**
 * The MCP tools for the job kinds beyond narrate and transcribe: align a script to media, translate a subtitle
 * file, dub a video, export an audiobook. Each admits its job with the core's own admission (the one the
 * CLI and the editor use), waits for it (the tool call's cancellation cancels the job), and writes the result
 * to `outputPath` the way narrate does: confined to the client's roots or the configured folders, never
 * through a link, an existing file only with `overwrite`. A job that writes its own output file writes it
 * into a staging folder first, so nothing reaches the user's folder unless it passed those checks.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { invalidRequest } from '../contract/errors';
import type { TranscriptFormat } from '../contract/openapi';
import type { DubMix } from '../engine-api/dub-types';
import type { AudiobookFormat } from '../audiobook/book-plan';
import { createAlignJob, finishAlignJob } from '../jobs/align-job';
import type { AppDeps } from '../jobs/app-deps';
import { createBookExport, finishBookExport } from '../jobs/book-export';
import { createDubJob, finishDubJob } from '../jobs/dub-job';
import { createTranslateJob, finishTranslateJob } from '../jobs/translate-job';
import type { JobService } from '../jobs/job-service';
import { toPublicJob, type JobRecord, type PublicJob } from '../jobs/types';
import { confineInput, confineOutput, writeConfined, type AllowedFolders } from '../local-files/confined-paths';
import { refuseOutputOverInput } from '../local-files/user-files';
import { findVadModelIn } from '../models/model-files';
import { confinedMedia } from './confined-media';
import { renderTranscript } from '../subtitles/render';
import { MAX_SCRIPT_BYTES } from '../subtitles/script';

export type JobToolDeps = Pick<
  AppDeps,
  'dataDir' | 'jobs' | 'voices' | 'validators' | 'engineConfig' | 'preferredSttModel' | 'maxUploadBytes'
>;

export interface AlignInput {
  mediaPath: string;
  scriptPath: string;
  format?: TranscriptFormat;
  language?: string;
  outputPath?: string;
  overwrite?: boolean;
}

export interface TranslateInput {
  path: string;
  to: string;
  from?: string;
  outputPath: string;
  overwrite?: boolean;
}

export interface DubInput {
  path: string;
  to: string;
  from?: string;
  subtitlesPath?: string;
  mix?: DubMix;
  outputPath: string;
  overwrite?: boolean;
}

export interface AudiobookInput {
  path: string;
  outputPath: string;
  voice?: string;
  chapters?: string;
  overwrite?: boolean;
}

const BOOK_FORMATS: Record<string, AudiobookFormat> = { '.m4b': 'm4b', '.mp3': 'mp3', '.epub': 'epub3' };

/** The job's result when it succeeded; its own error (or how it ended) as a tool error otherwise. */
function succeeded<R>(ended: { job: JobRecord; result: R | null }, what: string): R {
  if (ended.result !== null && ended.job.status === 'succeeded') return ended.result;
  throw new Error(ended.job.error ?? `The ${what} ended ${ended.job.status}.`);
}

/**
 * Runs a job that writes its own output file: into a staging folder, then copied to `outputPath` through the
 * confined writer. The staging folder is removed whatever happens.
 */
async function viaStaging<R>(
  jobs: JobService,
  target: { outputPath: string; overwrite?: boolean; allowed: AllowedFolders; inputs: readonly string[] },
  stagedName: string,
  run: (staged: string) => Promise<{ job: JobRecord; result: R | null }>,
  what: string,
): Promise<{ result: R; job: JobRecord }> {
  const output = await confineOutput(target.outputPath, target.allowed, target.overwrite ?? false);
  await refuseOutputOverInput(output, target.inputs, 'outputPath');
  const staging = await mkdtemp(path.join(os.tmpdir(), 'speech-studio-mcp-'));
  try {
    const staged = path.join(staging, stagedName);
    const ended = await run(staged);
    const result = succeeded(ended, what);
    await writeConfined(
      target.outputPath,
      target.allowed,
      { copyFrom: staged },
      { overwrite: target.overwrite ?? false },
    );
    await jobs.delete(ended.job.id).catch(() => undefined);
    return { result, job: ended.job };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export function jobTools(deps: JobToolDeps, folders: () => Promise<string[]>) {
  return {
    /** Aligns a script (text, Markdown, or subtitles) to a media file; answers the timed subtitles. */
    async align(
      input: AlignInput,
      signal?: AbortSignal,
    ): Promise<{
      job: PublicJob;
      subtitles: string;
      matchedCues: number;
      unmatchedCues: Array<{ index: number; text: string }>;
      outputPath?: string;
    }> {
      const allowed = await folders();
      const media = await confinedMedia(deps.maxUploadBytes, input.mediaPath, allowed, 'mediaPath');
      const script = await confineInput(input.scriptPath, allowed, 'scriptPath');
      if (script.stats.size > MAX_SCRIPT_BYTES)
        throw invalidRequest(`scriptPath: the script is larger than ${MAX_SCRIPT_BYTES / 1024 / 1024} MB`);
      const target = input.outputPath;
      if (target)
        await refuseOutputOverInput(
          await confineOutput(target, allowed, input.overwrite ?? false),
          [media.path, script.path],
          'outputPath',
        );
      const vadModelPath = await findVadModelIn(path.join(deps.dataDir, 'models'), deps.engineConfig());
      const preferred = deps.preferredSttModel?.();
      const created = await createAlignJob(deps.jobs, {
        origin: 'api',
        media: media.path,
        scriptName: path.basename(input.scriptPath),
        script: await readFile(script.path, 'utf8'),
        vadModelPath,
        ...(input.language ? { language: input.language } : {}),
        ...(preferred ? { preferredSttModel: preferred } : {}),
      });
      const ended = await finishAlignJob(deps.jobs, created, signal);
      const outcome = succeeded(ended, 'alignment');
      const subtitles = renderTranscript(outcome.transcript, input.format ?? 'srt').body;
      if (target) await writeConfined(target, allowed, subtitles, { overwrite: input.overwrite ?? false });
      return {
        job: toPublicJob(ended.job),
        subtitles,
        matchedCues: outcome.result.matchedCues ?? 0,
        unmatchedCues: (outcome.result.unmatchedCues ?? []).map(({ index, text }) => ({ index, text })),
        ...(target ? { outputPath: target } : {}),
      };
    },

    /** Translates an SRT or WebVTT file with the local language model into `outputPath`. */
    async translate(input: TranslateInput, signal?: AbortSignal) {
      const allowed = await folders();
      const source = await confineInput(input.path, allowed, 'path');
      const extension = path.extname(source.path).toLowerCase();
      const { result } = await viaStaging(
        deps.jobs,
        { ...input, allowed, inputs: [source.path] },
        `translation${extension}`,
        async (staged) =>
          finishTranslateJob(
            deps.jobs,
            await createTranslateJob(deps.jobs, deps.dataDir, {
              origin: 'mcp',
              input: source.path,
              out: staged,
              to: input.to,
              ...(input.from ? { from: input.from } : {}),
            }),
            signal,
          ),
        'translation',
      );
      return { ...result, outputPath: input.outputPath };
    },

    /** Dubs a video into another language (transcribed, translated, spoken, mixed) into `outputPath`. */
    async dub(input: DubInput, signal?: AbortSignal) {
      const allowed = await folders();
      const video = await confinedMedia(deps.maxUploadBytes, input.path, allowed, 'path');
      const subtitles = input.subtitlesPath
        ? (await confineInput(input.subtitlesPath, allowed, 'subtitlesPath')).path
        : undefined;
      const preferred = deps.preferredSttModel?.();
      const { result } = await viaStaging(
        deps.jobs,
        { ...input, allowed, inputs: subtitles ? [video.path, subtitles] : [video.path] },
        `dub${path.extname(input.outputPath).toLowerCase()}`,
        async (staged) =>
          finishDubJob(
            deps.jobs,
            await createDubJob(
              deps.jobs,
              deps.dataDir,
              { entries: () => deps.voices.entries() },
              {
                origin: 'mcp',
                input: video.path,
                out: staged,
                to: input.to,
                ...(input.from ? { from: input.from } : {}),
                ...(subtitles ? { subtitles } : {}),
                ...(input.mix ? { mix: input.mix } : {}),
                ...(preferred ? { sttModel: preferred } : {}),
              },
            ),
            signal,
          ),
        'dub',
      );
      return { ...result, outputPath: input.outputPath };
    },

    /** Exports a manuscript (Markdown, text, EPUB, DOCX) as an M4B, MP3 or read-along EPUB at `outputPath`. */
    async exportAudiobook(input: AudiobookInput, signal?: AbortSignal) {
      const allowed = await folders();
      const manuscript = await confineInput(input.path, allowed, 'path');
      const extension = path.extname(input.outputPath).toLowerCase();
      const format = BOOK_FORMATS[extension];
      if (!format) throw invalidRequest('outputPath: an audiobook is written as .m4b, .mp3 or .epub (read-along)');
      const { result } = await viaStaging(
        deps.jobs,
        { ...input, allowed, inputs: [manuscript.path] },
        `book${extension}`,
        async (staged) =>
          finishBookExport(
            deps.jobs,
            await createBookExport(deps, {
              origin: 'mcp',
              input: manuscript.path,
              out: staged,
              format,
              ...(input.voice ? { voiceId: input.voice } : {}),
              ...(input.chapters ? { chapters: input.chapters } : {}),
            }),
            signal,
          ),
        'export',
      );
      return {
        outputPath: input.outputPath,
        chapters: result.chapters.map(({ title, seconds }) => ({ title, seconds })),
        synthesized: result.synthesized,
        reused: result.reused,
      };
    },
  };
}
