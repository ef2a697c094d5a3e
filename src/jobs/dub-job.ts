/**
 * Dubbing a video, as every door does it (Dub Media…, `cli.js dub`): admit the request (a video, a language,
 * a place to write that is not the video, subtitles that read or a recognizer to transcribe with, a language
 * model, voices of the language in the library), queue a `dub` job, and wait for it to end. The job runs in
 * an engine process like any other, shows its progress in the Jobs view and is cancelled like any other; a
 * dub that did not finish leaves no partial file behind.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../contract/errors';
import { resolveStyle, type SubtitleStyle } from '../contract/subtitle-style';
import { DUB_MIXES, type DubMix, type DubResult, type DubVoiceChoices } from '../engine-api/dub-types';
import { DUB_CONTAINERS } from '../contract/media-types';
import { resolveLanguageModel } from '../models/language-models';
import { parseSubtitles, SubtitleError } from '../subtitles/parse';
import { isKnownLanguageTag } from '../translate/language-tags';
import { checkOutputFile, requireRegularFile } from '../local-files/user-files';
import { voiceQuality } from '../voices/best-voice';
import { languageTagStartsWith } from '../voices/language-tag';
import type { VoiceEntry } from '../voices/voice-entry';
import { isReadyVoice } from '../voices/voice-entry';
import { admitStt, installedSttModels } from './admission';
import type { JobService } from './job-service';
import { jobKindOf } from './kinds';
import { dubKind } from './kinds/dub';
import type { JobRecord } from './types';
import type { LocalOrigin } from './kinds/job-kind';
import { finishPartialOutputJob } from './wait-for-job';

export interface DubRequest {
  origin: LocalOrigin;
  /** The video, and where its dubbed copy goes. */
  input: string;
  out: string;
  to: string;
  from?: string;
  /** Subtitles (.srt or .vtt) to dub from instead of transcribing the video. */
  subtitles?: string;
  /** Default: duck. */
  mix?: DubMix;
  /** A .gguf path or an installed model's name; default: chosen by memory. */
  model?: string;
  /** The installed recognizer the settings prefer, when the video is transcribed. */
  sttModel?: string;
  style?: SubtitleStyle;
}

/** Where the admission finds the voices: the voice library. */
export interface DubVoiceSource {
  entries(): VoiceEntry[];
}

/** A request that cannot become a job, in one sentence for the user: a registry INVALID_REQUEST. */
export class DubRefusal extends ApiError {
  constructor(message: string) {
    super('INVALID_REQUEST', message);
    this.name = 'DubRefusal';
  }
}

/** The file name of a dub beside its video: `talk.mp4` in German is `talk.de.mp4`. */
export function dubbedName(input: string, to: string): string {
  const extension = path.extname(input);
  return path.join(path.dirname(input), `${path.basename(input, extension)}.${to}${extension}`);
}

/** The library's ready voices whose language is the target's, best first, by the gender the library gives them. */
export function dubVoiceChoices(entries: readonly VoiceEntry[], to: string): DubVoiceChoices {
  const primary = to.split('-')[0].toLowerCase();
  const exact = to.toLowerCase();
  const matching = entries
    .filter((entry) => isReadyVoice(entry.voice) && languageTagStartsWith(entry.voice.languageCode, primary))
    // The best voices first; among equals, the target's own variety (de-DE before de-CH for de-DE).
    .sort(
      (a, b) =>
        voiceQuality(b) - voiceQuality(a) ||
        Number(languageTagStartsWith(b.voice.languageCode, exact)) -
          Number(languageTagStartsWith(a.voice.languageCode, exact)) ||
        a.voice.name.localeCompare(b.voice.name),
    );
  const refs = (gender: string | undefined): DubVoiceChoices['female'] =>
    matching
      .filter((entry) => entry.voice.gender === gender)
      .map((entry) => ({ ...entry.ref, name: entry.voice.name }));
  return {
    female: refs('female'),
    male: refs('male'),
    other: matching
      .filter((entry) => entry.voice.gender !== 'female' && entry.voice.gender !== 'male')
      .map((entry) => ({ ...entry.ref, name: entry.voice.name })),
  };
}

async function readSubtitles(file: string): Promise<{ text: string; format: 'srt' | 'vtt' }> {
  const format = path.extname(file).slice(1).toLowerCase();
  if (format !== 'srt' && format !== 'vtt')
    throw new DubRefusal(`Only .srt and .vtt subtitles can be dubbed from, not "${path.basename(file)}".`);
  await requireRegularFile(file, 'subtitle file');
  const text = (
    await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new DubRefusal(`The subtitle file ${file} cannot be read (${error.code ?? error.message}).`);
    })
  ).replace(/^\uFEFF/, '');
  try {
    if (parseSubtitles(text, format).length === 0) throw new DubRefusal(`${path.basename(file)} has no cues to dub.`);
  } catch (error) {
    if (error instanceof SubtitleError) throw new DubRefusal(`${path.basename(file)}: ${error.message}`);
    throw error;
  }
  return { text, format };
}

/** The recognizer that transcribes the video; a machine without one is refused with the install hint. */
async function sttModelFor(dataDir: string, from: string | undefined, preferred: string | undefined): Promise<string> {
  try {
    const admitted = admitStt(
      {
        options: { language: from ?? 'auto', punctuation: true, diarizationEnabled: true, speakerCountMode: 'auto' },
        diarizationAsked: false,
      },
      await installedSttModels(dataDir),
      preferred,
    );
    return admitted.model.path;
  } catch (error) {
    if (error instanceof ApiError)
      throw new DubRefusal(`${error.message} Or give the video's subtitles (--subtitles).`);
    throw error;
  }
}

/** Admits the dub and queues its job; throws a DubRefusal (or NoLanguageModelError) before any work. */
export async function createDubJob(
  jobs: JobService,
  dataDir: string,
  voices: DubVoiceSource,
  request: DubRequest,
): Promise<JobRecord> {
  if (!isKnownLanguageTag(request.to))
    throw new DubRefusal(
      `The language to dub into must be a known language tag such as de or pt-BR, not "${request.to}".`,
    );
  if (request.from !== undefined && !isKnownLanguageTag(request.from))
    throw new DubRefusal(`The source language must be a known language tag such as en, not "${request.from}".`);
  const mix = request.mix ?? 'duck';
  if (!DUB_MIXES.includes(mix))
    throw new DubRefusal(`The mix must be ${DUB_MIXES.join(' or ')}, not "${String(mix)}".`);
  const input = path.resolve(request.input);
  const out = path.resolve(request.out);
  if (!DUB_CONTAINERS.includes(path.extname(out).toLowerCase()))
    throw new DubRefusal(
      `A dub is written as ${DUB_CONTAINERS.join(', ')}: name the output so (not "${path.basename(out)}").`,
    );
  await requireRegularFile(input, 'video');
  await checkOutputFile(out, [input, ...(request.subtitles ? [request.subtitles] : [])], 'dub');
  const subtitles = request.subtitles ? await readSubtitles(path.resolve(request.subtitles)) : undefined;
  const choices = dubVoiceChoices(voices.entries(), request.to);
  if (choices.female.length + choices.male.length + choices.other.length === 0) {
    throw new DubRefusal(
      `No ready voice in your voice library speaks ${request.to}: install one (Choose Voice, or models install) and dub again.`,
    );
  }
  const sttModelPath = subtitles ? undefined : await sttModelFor(dataDir, request.from, request.sttModel);
  const modelPath = await resolveLanguageModel(dataDir, request.model);
  return jobs.create(dubKind, {
    origin: request.origin,
    name: `Dub ${path.basename(input)} → ${request.to}`,
    ...(subtitles ? { subtitlesText: subtitles.text } : {}),
    input: {
      input,
      out,
      to: request.to,
      mix,
      modelPath,
      voices: choices,
      style: request.style ?? resolveStyle(),
      ...(request.from ? { from: request.from } : {}),
      ...(subtitles ? { subtitles: path.resolve(request.subtitles!), subtitlesFormat: subtitles.format } : {}),
      ...(sttModelPath ? { sttModelPath } : {}),
    },
  });
}

/** Waits for a dub to end (aborting `signal` cancels it); an unfinished one leaves no partial file. */
export async function finishDubJob(
  jobs: JobService,
  job: JobRecord,
  signal?: AbortSignal,
): Promise<{ job: JobRecord; result: DubResult | null }> {
  const ended = await finishPartialOutputJob(jobs, job, () => jobKindOf(job.kind).userOutput?.(job), signal);
  return { job: ended, result: dubKind.resultOf(ended) };
}
