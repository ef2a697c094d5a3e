/**
 * "Speech Studio: Embed Subtitles in Video…": the open subtitle file goes into a copy of its video as a soft
 * track, with the language from the file name (`talk.en.srt`) or asked for: an `embed` job of the job core
 * (src/jobs/kinds/embed.ts), shown in the Jobs view and cancelled from there or the notification; an engine
 * process runs ffmpeg (src/engine/media/embed-subtitles.ts). The video itself is never changed.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { EMBED_CONTAINERS } from '../../contract/media-types';
import type { EmbedSubtitlesResult } from '../../engine-api/protocol';
import { embedKind } from '../../jobs/kinds/embed';
import { finishPartialOutputJob } from '../../jobs/wait-for-job';
import { languageFromFileName, trackLanguage } from '../../subtitles/subtitle-language';
import { reportError } from '../log';
import type { Services } from '../services';
import { activeSubtitle } from './active-subtitle';
import { mediaForSubtitle } from './cue-media';

export const EMBED_SUBTITLES_COMMAND = 'speechStudio.embedSubtitlesInVideo';

/** What a caller (a test, another command) may decide instead of the dialogs. */
export interface EmbedSubtitlesOptions {
  video?: string;
  output?: string;
  /** A language tag (`en`, `pt-BR`) or ISO 639-2 code (`eng`). */
  language?: string;
  /** The track's title (default: the language's name). */
  title?: string;
  /** Leave out the video's subtitle tracks of the same language (default: keep every track). */
  replaceSameLanguage?: boolean;
}

const isVideo = (file: string): boolean => EMBED_CONTAINERS.includes(path.extname(file).toLowerCase());

async function chooseVideo(services: Services, subtitle: vscode.Uri): Promise<string | undefined> {
  const media = await mediaForSubtitle(services.context, subtitle);
  if (media && isVideo(media.fsPath)) return media.fsPath;
  const picked = await vscode.window.showOpenDialog({
    title: `Video for ${path.basename(subtitle.fsPath)}`,
    openLabel: 'Embed in a Copy of This Video',
    canSelectMany: false,
    defaultUri: vscode.Uri.file(path.dirname(subtitle.fsPath)),
    filters: { Video: EMBED_CONTAINERS.map((extension) => extension.slice(1)) },
  });
  return picked?.[0]?.fsPath;
}

async function chooseLanguage(subtitle: string): Promise<string | undefined> {
  const named = languageFromFileName(subtitle);
  if (named) return named;
  return vscode.window.showInputBox({
    title: 'Language of the subtitle track',
    prompt: 'A language code such as en, fr or pt-BR (und when it is not known)',
    value: vscode.env.language.split('-')[0],
    validateInput: (value) =>
      trackLanguage(value) === 'und' && value.trim() !== 'und'
        ? 'Not a language code this knows; try en, fr, de… or und.'
        : undefined,
  });
}

/** Whether the new track replaces the video's tracks of its language; undefined when dismissed. */
async function chooseReplace(): Promise<boolean | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      { label: 'Add the track', description: 'keep every subtitle track the video has', replace: false },
      {
        label: 'Replace the track of this language',
        description: "leave out the video's tracks in the same language",
        replace: true,
      },
    ],
    { title: 'Subtitle tracks already in the video' },
  );
  return picked?.replace;
}

export async function embedSubtitlesInVideo(
  services: Services,
  options: EmbedSubtitlesOptions = {},
): Promise<EmbedSubtitlesResult | undefined> {
  const active = activeSubtitle('embed it in a video');
  if (!active) return undefined;
  const { document } = active;
  if (document.isDirty && !(await document.save())) return undefined;
  const subtitles = document.uri.fsPath;
  const video = options.video ?? (await chooseVideo(services, document.uri));
  if (!video) return undefined;
  const language = options.language ?? (await chooseLanguage(subtitles));
  if (language === undefined) return undefined;
  const extension = path.extname(video);
  const output =
    options.output ??
    (
      await vscode.window.showSaveDialog({
        title: 'Save the subtitled copy as',
        defaultUri: vscode.Uri.file(
          path.join(path.dirname(video), `${path.basename(video, extension)}.subtitled${extension}`),
        ),
        filters: { Video: [extension.slice(1)] },
      })
    )?.fsPath;
  if (!output) return undefined;
  const replaceSameLanguage = options.replaceSameLanguage ?? (options.output ? false : await chooseReplace());
  if (replaceSameLanguage === undefined) return undefined;
  const server = await services.controller.ready();
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Embedding ${path.basename(subtitles)} in ${path.basename(output)}`,
      cancellable: true,
    },
    async (_progress, token) => {
      const cancel = new AbortController();
      const cancelling = token.onCancellationRequested(() => cancel.abort());
      try {
        const job = await server.jobs.create(embedKind, {
          origin: 'editor',
          video,
          subtitles,
          out: output,
          language,
          ...(options.title === undefined ? {} : { title: options.title }),
          ...(replaceSameLanguage ? { replaceSameLanguage } : {}),
        });
        const ended = await finishPartialOutputJob(server.jobs, job, () => undefined, cancel.signal);
        const result = embedKind.resultOf(ended);
        if (ended.status === 'cancelled') return undefined;
        if (!result) throw new Error(ended.error ?? `The embedding ended ${ended.status}.`);
        const others =
          result.keptTracks.length > 0 ? ` Kept its ${result.keptTracks.length} other subtitle track(s).` : '';
        const replaced =
          result.replacedTracks.length > 0
            ? ` Replaced ${result.replacedTracks.length} track(s) in ${result.language}.`
            : '';
        const dropped =
          result.droppedTracks.length > 0
            ? ` Left out ${result.droppedTracks.length} picture track(s) the container cannot hold.`
            : '';
        void vscode.window.showInformationMessage(
          `Wrote ${path.basename(result.outputPath)} with ${result.subtitleCues} cues as a ${result.subtitleCodec} track (${result.language}); the video was copied, not re-encoded.${others}${replaced}${dropped}`,
        );
        return result;
      } catch (error) {
        if (cancel.signal.aborted) return undefined;
        throw error;
      } finally {
        cancelling.dispose();
      }
    },
  );
}

export function registerEmbedSubtitles(services: Services): vscode.Disposable {
  return vscode.commands.registerCommand(EMBED_SUBTITLES_COMMAND, async (options?: EmbedSubtitlesOptions) => {
    try {
      return await embedSubtitlesInVideo(services, options);
    } catch (error) {
      reportError(services.log, 'Embedding the subtitles failed', error);
      return undefined;
    }
  });
}
