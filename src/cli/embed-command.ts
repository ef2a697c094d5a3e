/**
 * `node dist/cli.js embed-subtitles <video> <subtitles> --out x.mp4 [--language en]`: a copy of the video with
 * the subtitles as a soft track, made by an engine process as the editor's command makes it (ffmpeg does the
 * work, copying the video and audio as they are).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { EmbedSubtitlesTask } from '../engine-api/protocol';
import type { EngineConfig } from '../engine-api/engine-config';
import { consoleLogger } from '../util/log';
import { languageFromFileName, trackLanguage } from '../subtitles/subtitle-language';
import { UsageError } from '../util/usage-error';

export interface EmbedFlags {
  out?: string;
  language?: string;
  title?: string;
  /** Leave out the video's subtitle tracks of the same language. */
  'replace-language'?: boolean;
}

/** `engineConfig`: the engine configuration the entry built (src/config/engine-environment.ts), handed to the engine process. */
export async function runEmbedCommand(args: readonly string[], flags: EmbedFlags, engineConfig: EngineConfig): Promise<number> {
  const [video, subtitles] = args;
  if (!video || !subtitles) throw new UsageError('Expected "embed-subtitles <video> <subtitles> --out x.mp4".');
  if (!flags.out) throw new UsageError('embed-subtitles needs --out, the copy to write (e.g. talk.subtitled.mp4).');
  const language = trackLanguage(flags.language ?? languageFromFileName(subtitles));
  const task: EmbedSubtitlesTask = {
    kind: 'embed-subtitles', videoPath: path.resolve(video), subtitlesPath: path.resolve(subtitles), outputPath: path.resolve(flags.out), language,
    ...(flags.title === undefined ? {} : { title: flags.title }), ...(flags['replace-language'] ? { replaceSameLanguage: true } : {}),
  };
  // Loaded here so the other commands do not load the engine host. No job core: nothing is stored, the data directory is not touched.
  const [{ EngineHost, EngineCancelledError }, { defaultEngineWorkerPath }] = await Promise.all([import('../jobs/engine-host'), import('../host/local-core')]);
  const engine = new EngineHost({ workerPath: defaultEngineWorkerPath(), log: { ...consoleLogger, info: (message: string) => console.error(message) }, config: engineConfig });
  const controller = new AbortController();
  const cancel = (): void => controller.abort();
  process.once('SIGINT', cancel);
  process.once('SIGTERM', cancel);
  try {
    const { result } = await engine.run(`embed-subtitles-${randomUUID()}`, task, { signal: controller.signal, onProgress: () => undefined });
    console.log(`Wrote ${flags.out}: ${result.subtitleCues} cues as a ${result.subtitleCodec} track (${result.language})${result.title ? ` titled "${result.title}"` : ''}; the video and audio were copied, not re-encoded.`);
    if (result.keptTracks.length > 0) console.log(`Kept the video's ${result.keptTracks.length} other subtitle track(s): ${result.keptTracks.map((track) => track.language).join(', ')}.`);
    if (result.replacedTracks.length > 0) console.log(`Replaced: ${result.replacedTracks.map((track) => `${track.language}${track.title ? ` "${track.title}"` : ''}`).join(', ')}.`);
    if (result.droppedTracks.length > 0) console.error(`Left out (pictures ${path.extname(flags.out)} cannot hold): ${result.droppedTracks.map((track) => `${track.codec} ${track.language}`).join(', ')}.`);
    return 0;
  } catch (error) {
    if (error instanceof EngineCancelledError || controller.signal.aborted) {
      console.error('Cancelled; nothing was written.');
      return 130;
    }
    // The engine's refusal or failure, already worded for people (a container it cannot write, an unreadable file).
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
    await engine.close();
  }
}
