/**
 * The `embed` job kind: a copy of a video with a subtitle file as a soft track, written where the user asked
 * (the engine's `embed-subtitles` task, src/engine/media/embed-subtitles.ts). The subtitles are copied into the
 * job's folder, so a job run again after a restart embeds what was given when it was created. The editor's
 * Embed Subtitles command and the CLI's `embed-subtitles` create it; it is local-only, never on the seed's routes.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { invalidRequest } from '../../contract/errors';
import { EMBED_CONTAINERS } from '../../contract/media-types';
import type { EmbedSubtitlesResult } from '../../engine-api/protocol';
import { checkOutputFile, requireRegularFile } from '../../local-files/user-files';
import { subtitleFormatOfPath } from '../../subtitles/scan';
import { languageFromFileName, trackLanguage } from '../../subtitles/subtitle-language';
import { isLocalOrigin, isSafeFileName, isString } from './checks';
import { isKind, type JobKindModule, type LocalOrigin, type NewJob } from './job-kind';

/** What the store keeps of an embedding: absolute paths, the copy of the subtitles, the track's options. */
export interface EmbedJobInput {
  kind: 'embed';
  /** The video and the subtitle file as given, and where the copy goes (absolute). */
  video: string;
  subtitles: string;
  out: string;
  /** The subtitles' copy in the job's folder (its extension says its format). */
  subtitlesFile: string;
  /** ISO 639-2 (`eng`), or `und`. */
  language: string;
  title?: string;
  replaceSameLanguage?: boolean;
}

/** An embedding the editor or the CLI asks for; paths may be relative to the working directory. */
export interface NewEmbedJob extends NewJob {
  origin: LocalOrigin;
  video: string;
  subtitles: string;
  out: string;
  /** A language tag (`en`, `pt-BR`) or ISO 639-2 code; default: from the subtitle file's name (`talk.de.srt`), else `und`. */
  language?: string;
  title?: string;
  replaceSameLanguage?: boolean;
}

const isEmbed = isKind('embed');

/** Refuses, before any work, what the engine would refuse (the same sentences), and copies the subtitles. */
async function admit(job: NewEmbedJob, copyTo: (name: string) => string): Promise<EmbedJobInput> {
  const video = path.resolve(job.video);
  const subtitles = path.resolve(job.subtitles);
  const out = path.resolve(job.out);
  const container = path.extname(out).toLowerCase();
  if (!EMBED_CONTAINERS.includes(container))
    throw invalidRequest(
      `Subtitles can be embedded in ${EMBED_CONTAINERS.join(', ')} files, not ${path.extname(out) || 'a file without an extension'}.`,
    );
  if (!subtitleFormatOfPath(subtitles))
    throw invalidRequest(
      `${path.basename(subtitles)} is not a subtitle file this can read (.srt, .vtt, .ass, .ssa, .ttml, .dfxp, .sbv).`,
    );
  if (job.title !== undefined && (job.title.length > 200 || /[\r\n]/.test(job.title)))
    throw invalidRequest("The subtitle track's title must be one line of at most 200 characters.");
  await requireRegularFile(video, 'video');
  await requireRegularFile(subtitles, 'subtitle file');
  await checkOutputFile(out, [video, subtitles], 'copy');
  const subtitlesFile = `subtitles${path.extname(subtitles).toLowerCase()}`;
  await fs.copyFile(subtitles, copyTo(subtitlesFile)).catch((error: NodeJS.ErrnoException) => {
    throw invalidRequest(`The subtitle file ${subtitles} cannot be read (${error.code ?? error.message}).`);
  });
  return {
    kind: 'embed',
    video,
    subtitles,
    out,
    subtitlesFile,
    language: trackLanguage(job.language ?? languageFromFileName(subtitles)),
    ...(job.title === undefined ? {} : { title: job.title }),
    ...(job.replaceSameLanguage ? { replaceSameLanguage: true } : {}),
  };
}

export const embedKind: JobKindModule<'embed', EmbedJobInput, EmbedSubtitlesResult, NewEmbedJob> = {
  kind: 'embed',
  seedKind: null,
  label: 'Embedded subtitles',
  noun: 'subtitle embedding',
  phrase: 'a copy of a video with subtitles embedded',
  openWith: 'reveal',

  async input(job, folder) {
    const input = await admit(job, (name) => folder.file(name));
    return { input, name: job.name ?? `Embed ${path.basename(input.subtitles)} in ${path.basename(input.out)}` };
  },

  task: (job, paths) => {
    const input = job.input;
    return {
      kind: 'embed-subtitles',
      videoPath: input.video,
      subtitlesPath: paths.file(job.id, input.subtitlesFile),
      outputPath: input.out,
      language: input.language,
      ...(input.title === undefined ? {} : { title: input.title }),
      ...(input.replaceSameLanguage ? { replaceSameLanguage: true } : {}),
    };
  },

  outputFile: () => null,
  userOutput: (job) => job.input.out,

  inputProblem(input, origin) {
    if (!isLocalOrigin(origin)) return 'origin: an embedding job comes from the editor or the command line';
    if (!(
      isString(input.video) &&
      isString(input.subtitles) &&
      isString(input.out) &&
      isSafeFileName(input.subtitlesFile)
    ))
      return 'input: is not a subtitle embedding';
    if (!(typeof input.language === 'string' && /^[a-z]{3}$/.test(input.language)))
      return "input: lacks the track's language";
    if (
      !(input.title === undefined || isString(input.title)) ||
      !(input.replaceSameLanguage === undefined || typeof input.replaceSameLanguage === 'boolean')
    )
      return 'input: has a malformed title or replaceSameLanguage';
    return undefined;
  },

  resultOf(job) {
    return isEmbed(job) ? job.result : null;
  },
};
