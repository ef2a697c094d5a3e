/**
 * The engine's embed-subtitles task: a copy of a video with a subtitle file as a soft track, the video and
 * audio packets copied as they are (`-c copy`), the subtitles in the codec the container takes (`mov_text`
 * in MP4/MOV, `webvtt` in WebM, `ass` or `subrip` in Matroska). The video's own subtitle tracks (and a
 * Matroska file's attached fonts) are kept, after them comes the new one, tagged with its language and
 * title; a track of the same language is dropped only when asked (subtitle-tracks.ts). TTML and SBV, which
 * ffmpeg does not read, are handed to it as SubRip first. The copy is written under a temporary name and
 * renamed when complete.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { displayText } from '../../subtitles/check';
import { formatSrt } from '../../subtitles/render-subtitles';
import { scanSubtitles, subtitleFormatOfPath, type SubtitleFormat } from '../../subtitles/scan';
import {
  UserFacingError,
  type EmbedSubtitlesResult,
  type EmbedSubtitlesTask,
  type SubtitleTrackSummary,
  type ProgressReporter,
  type TaskOutcome,
} from '../../engine-api/protocol';
import { findMediaTools, firstErrorLine, runTool } from './ffmpeg';
import { EMBED_CONTAINERS } from '../../contract/media-types';
import {
  newTrackCodec,
  planTracks,
  probeSubtitleTracks,
  titleIsHandlerName,
  type ExistingTrack,
} from './subtitle-tracks';

/** The task as it may run, or a sentence saying why not. */
export function checkEmbedSubtitlesTask(task: Record<string, unknown>): EmbedSubtitlesTask {
  const { videoPath, subtitlesPath, outputPath, language, title, replaceSameLanguage } = task;
  for (const [name, value] of Object.entries({ videoPath, subtitlesPath, outputPath })) {
    if (typeof value !== 'string' || !path.isAbsolute(value))
      throw new UserFacingError(`Embedding subtitles needs the absolute path of the ${name.replace('Path', '')} file.`);
  }
  if (typeof language !== 'string' || !/^[a-z]{3}$/.test(language))
    throw new UserFacingError(
      `The subtitle track's language must be an ISO 639-2 code such as eng, got ${JSON.stringify(language)}.`,
    );
  if (!subtitleFormatOfPath(subtitlesPath as string))
    throw new UserFacingError(
      `${path.basename(subtitlesPath as string)} is not a subtitle file this can read (.srt, .vtt, .ass, .ssa, .ttml, .dfxp, .sbv).`,
    );
  if (title !== undefined && (typeof title !== 'string' || title.length > 200 || /[\r\n]/.test(title)))
    throw new UserFacingError("The subtitle track's title must be one line of at most 200 characters.");
  if (replaceSameLanguage !== undefined && typeof replaceSameLanguage !== 'boolean')
    throw new UserFacingError('replaceSameLanguage must be true or false.');
  if (!newTrackCodec(path.extname(outputPath as string), 'srt')) {
    throw new UserFacingError(
      `Subtitles can be embedded in ${EMBED_CONTAINERS.join(', ')} files, not ${path.extname(outputPath as string) || 'a file without an extension'}.`,
    );
  }
  if (path.resolve(outputPath as string) === path.resolve(videoPath as string))
    throw new UserFacingError('The copy must go to a new file, not over the video.');
  return {
    kind: 'embed-subtitles',
    videoPath: videoPath as string,
    subtitlesPath: subtitlesPath as string,
    outputPath: outputPath as string,
    language: language,
    ...(title === undefined ? {} : { title: title }),
    ...(replaceSameLanguage ? { replaceSameLanguage: true } : {}),
  };
}

/** The subtitles as ffmpeg can read them: the file itself, or a SubRip copy of a TTML or SBV file. */
async function readableSubtitles(subtitlesPath: string, format: SubtitleFormat, scratch: string): Promise<string> {
  if (format !== 'ttml' && format !== 'sbv') return subtitlesPath;
  const { cues, errors } = scanSubtitles(await readFile(subtitlesPath, 'utf8'), format);
  if (errors.length > 0)
    throw new UserFacingError(`${path.basename(subtitlesPath)} cannot be read: ${errors[0].message}.`);
  const srt = cues.map((cue) => ({
    start: cue.start,
    end: cue.end,
    lines: cue.lines.map(displayText).filter(Boolean),
  }));
  await writeFile(scratch, formatSrt(srt), 'utf8');
  return scratch;
}

/** A track's title: the one asked for, else the language's English name (`eng` → English); none for `und`. */
function titleOf(task: EmbedSubtitlesTask): string | undefined {
  if (task.title !== undefined) return task.title.trim() || undefined;
  if (task.language === 'und') return undefined;
  const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(task.language);
  return name && name !== task.language ? name : undefined;
}

export async function runEmbedSubtitlesTask(
  task: EmbedSubtitlesTask,
  report: ProgressReporter,
): Promise<TaskOutcome<EmbedSubtitlesResult>> {
  const tools = findMediaTools();
  const format = subtitleFormatOfPath(task.subtitlesPath)!;
  const extension = path.extname(task.outputPath);
  const codec = newTrackCodec(extension, format)!;
  const stem = path.join(
    path.dirname(task.outputPath),
    `.${path.basename(task.outputPath, extension)}.${randomBytes(4).toString('hex')}`,
  );
  const partial = `${stem}.partial${extension}`;
  const scratch = `${stem}.srt`;
  report('encoding', 0);
  try {
    const input = await readableSubtitles(task.subtitlesPath, format, scratch);
    const plans = planTracks(
      await probeSubtitleTracks(tools.ffprobe, task.videoPath),
      extension,
      task.language,
      task.replaceSameLanguage === true,
    );
    const kept = plans.flatMap((plan) => ('codec' in plan ? [plan] : []));
    const position = kept.length;
    const title = titleOf(task);
    const muxed = await runTool('ffmpeg', tools.ffmpeg, [
      '-v',
      'error',
      '-nostdin',
      '-y',
      '-i',
      task.videoPath,
      '-i',
      input,
      '-map',
      '0:v',
      '-map',
      '0:a?',
      ...kept.flatMap((plan) => ['-map', `0:${plan.track.index}`]),
      '-map',
      '1:0',
      ...(extension.toLowerCase() === '.mkv' ? ['-map', '0:t?'] : []),
      '-c',
      'copy',
      ...kept.flatMap((plan, i) => (plan.codec === 'copy' ? [] : [`-c:s:${i}`, plan.codec])),
      `-c:s:${position}`,
      codec,
      `-metadata:s:s:${position}`,
      `language=${task.language}`,
      ...(title
        ? [`-metadata:s:s:${position}`, `${titleIsHandlerName(extension) ? 'handler_name' : 'title'}=${title}`]
        : []),
      partial,
    ]);
    if (muxed.exitCode !== 0)
      throw new UserFacingError(`ffmpeg could not embed the subtitles: ${firstErrorLine(muxed.stderr, partial)}.`);
    const probed = await runTool('ffprobe', tools.ffprobe, [
      '-v',
      'error',
      '-select_streams',
      `s:${position}`,
      '-show_entries',
      'stream=codec_name:packet=size',
      '-of',
      'json',
      partial,
    ]);
    const found = JSON.parse(probed.stdout || '{}') as {
      streams?: { codec_name?: string }[];
      packets?: { size?: string }[];
    };
    const subtitleCodec = found.streams?.[0]?.codec_name;
    if (probed.exitCode !== 0 || !subtitleCodec)
      throw new UserFacingError('ffmpeg wrote a copy without a readable subtitle track.');
    const tracks = await probeSubtitleTracks(tools.ffprobe, partial);
    if (tracks.length !== position + 1)
      throw new UserFacingError(`ffmpeg wrote ${tracks.length} subtitle tracks, not the ${position + 1} asked for.`);
    // MP4 fills the time between cues with empty samples (a 2-byte length of 0): those are not cues.
    const subtitleCues = (found.packets ?? []).filter(
      (packet) => subtitleCodec !== 'mov_text' || Number(packet.size) > 2,
    ).length;
    await rename(partial, task.outputPath);
    report('encoding', 100);
    const left = (why: 'replaced' | 'unsupported') =>
      plans.flatMap((plan) => ('left' in plan && plan.left === why ? [describe(plan.track)] : []));
    return {
      backend: 'ffmpeg',
      result: {
        outputPath: task.outputPath,
        subtitleCodec,
        subtitleCues,
        language: task.language,
        ...(title ? { title } : {}),
        subtitleTrack: position,
        keptTracks: kept.map((plan) => describe(plan.track)),
        replacedTracks: left('replaced'),
        droppedTracks: left('unsupported'),
      },
    };
  } finally {
    await rm(partial, { force: true });
    await rm(scratch, { force: true });
  }
}

/** A track as the result names it. */
function describe(track: ExistingTrack): SubtitleTrackSummary {
  return { codec: track.codec, language: track.language ?? 'und', ...(track.title ? { title: track.title } : {}) };
}
