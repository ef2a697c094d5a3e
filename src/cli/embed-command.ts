/**
 * `node dist/cli.js embed-subtitles <video> <subtitles> --out x.mp4 [--language en]`: a copy of the video with
 * the subtitles as a soft track, made in this process by the engine's own code (ffmpeg does the work, copying
 * the video and audio as they are).
 */
import path from 'node:path';
import { checkEmbedSubtitlesTask, runEmbedSubtitlesTask } from '../engine/media/embed-subtitles';
import { UserFacingError } from '../engine-api/protocol';
import { languageFromFileName, trackLanguage } from '../subtitles/subtitle-language';
import { UsageError } from '../util/usage-error';

export interface EmbedFlags {
  out?: string;
  language?: string;
  title?: string;
  /** Leave out the video's subtitle tracks of the same language. */
  'replace-language'?: boolean;
}

export async function runEmbedCommand(args: readonly string[], flags: EmbedFlags): Promise<number> {
  const [video, subtitles] = args;
  if (!video || !subtitles) throw new UsageError('Expected "embed-subtitles <video> <subtitles> --out x.mp4".');
  if (!flags.out) throw new UsageError('embed-subtitles needs --out, the copy to write (e.g. talk.subtitled.mp4).');
  const language = trackLanguage(flags.language ?? languageFromFileName(subtitles));
  try {
    const task = checkEmbedSubtitlesTask({ videoPath: path.resolve(video), subtitlesPath: path.resolve(subtitles), outputPath: path.resolve(flags.out), language,
      ...(flags.title === undefined ? {} : { title: flags.title }), ...(flags['replace-language'] ? { replaceSameLanguage: true } : {}) });
    const { result } = await runEmbedSubtitlesTask(task, () => undefined);
    console.log(`Wrote ${flags.out}: ${result.subtitleCues} cues as a ${result.subtitleCodec} track (${result.language})${result.title ? ` titled "${result.title}"` : ''}; the video and audio were copied, not re-encoded.`);
    if (result.keptTracks.length > 0) console.log(`Kept the video's ${result.keptTracks.length} other subtitle track(s): ${result.keptTracks.map((track) => track.language).join(', ')}.`);
    if (result.replacedTracks.length > 0) console.log(`Replaced: ${result.replacedTracks.map((track) => `${track.language}${track.title ? ` "${track.title}"` : ''}`).join(', ')}.`);
    if (result.droppedTracks.length > 0) console.error(`Left out (pictures ${path.extname(flags.out)} cannot hold): ${result.droppedTracks.map((track) => `${track.codec} ${track.language}`).join(', ')}.`);
    return 0;
  } catch (error) {
    if (error instanceof UserFacingError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}
