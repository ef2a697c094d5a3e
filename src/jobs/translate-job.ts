/**
 * Translating a subtitle file, as every door does it (the editor's command, the CLI): admit the request (a
 * readable SRT or WebVTT file, a language tag, a place to write that is not the input, a language model),
 * queue a `translate` job, and wait for it to end. The job runs in an engine process like any other, shows
 * its progress in the Jobs view and is cancelled like any other; a translation that did not finish leaves no
 * partial file behind.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../contract/errors';
import { resolveStyle, type SubtitleStyle } from '../contract/subtitle-style';
import type { TranslateResult } from '../engine-api/protocol';
import { resolveLanguageModel } from '../models/language-models';
import { parseSubtitles, SubtitleError } from '../subtitles/parse';
import { isKnownLanguageTag } from '../translate/language-tags';
import { checkOutputFile, requireRegularFile } from '../local-files/user-files';
import type { JobService } from './job-service';
import { jobKindOf } from './kinds';
import { translateKind } from './kinds/translate';
import type { JobRecord } from './types';
import type { LocalOrigin } from './kinds/job-kind';
import { finishPartialOutputJob } from './wait-for-job';

export interface TranslateRequest {
  origin: LocalOrigin;
  /** The subtitle file (.srt or .vtt) and where its translation goes. */
  input: string;
  out: string;
  to: string;
  from?: string;
  /** A .gguf path or an installed model's name; default: chosen by memory. */
  model?: string;
  style?: SubtitleStyle;
}

/** A request that cannot become a job, in one sentence for the user: a registry INVALID_REQUEST. */
export class TranslateRefusal extends ApiError {
  constructor(message: string) {
    super('INVALID_REQUEST', message);
    this.name = 'TranslateRefusal';
  }
}

/** The file name of a translation beside its source: `talk.srt` in German is `talk.de.srt`. */
export function translatedName(input: string, to: string): string {
  const extension = path.extname(input);
  return path.join(path.dirname(input), `${path.basename(input, extension)}.${to}${extension}`);
}

/** Admits the translation and queues its job; throws a TranslateRefusal (or NoLanguageModelError) before any work. */
export async function createTranslateJob(
  jobs: JobService,
  dataDir: string,
  request: TranslateRequest,
): Promise<JobRecord> {
  const format = path.extname(request.input).slice(1).toLowerCase();
  if (format !== 'srt' && format !== 'vtt')
    throw new TranslateRefusal(`Only .srt and .vtt files can be translated, not "${path.basename(request.input)}".`);
  if (!isKnownLanguageTag(request.to))
    throw new TranslateRefusal(
      `The language to translate into must be a known language tag such as de or pt-BR, not "${request.to}".`,
    );
  if (request.from !== undefined && !isKnownLanguageTag(request.from))
    throw new TranslateRefusal(`The source language must be a known language tag such as en, not "${request.from}".`);
  const input = path.resolve(request.input);
  const out = path.resolve(request.out);
  if (path.extname(out).toLowerCase() !== `.${format}`)
    throw new TranslateRefusal(`The translation of a .${format} file is written as .${format}: name the output so.`);
  await requireRegularFile(input, 'subtitle file');
  await checkOutputFile(out, [input], 'translation');
  const source = await readFile(input, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new TranslateRefusal(`The subtitle file ${input} cannot be read (${error.code ?? error.message}).`);
  });
  let cues;
  try {
    cues = parseSubtitles(source.replace(/^\uFEFF/, ''), format);
  } catch (error) {
    if (error instanceof SubtitleError) throw new TranslateRefusal(`${path.basename(input)}: ${error.message}`);
    throw error;
  }
  const modelPath = await resolveLanguageModel(dataDir, request.model);
  return jobs.create(translateKind, {
    origin: request.origin,
    name: `Translate ${path.basename(input)} → ${request.to}`,
    source,
    input: {
      input,
      out,
      format,
      cues: cues.length,
      modelPath,
      to: request.to,
      ...(request.from ? { from: request.from } : {}),
      style: request.style ?? resolveStyle(),
    },
  });
}

/** Waits for a translation job to end (aborting `signal` cancels it); an unfinished one leaves no partial file. */
export async function finishTranslateJob(
  jobs: JobService,
  job: JobRecord,
  signal?: AbortSignal,
): Promise<{ job: JobRecord; result: TranslateResult | null }> {
  const ended = await finishPartialOutputJob(jobs, job, () => jobKindOf(job.kind).userOutput?.(job), signal);
  return { job: ended, result: translateKind.resultOf(ended) };
}
