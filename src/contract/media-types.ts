/**
 * The one table of media types and file extensions: what each audio output and transcript format is sent
 * as, and which media extensions an uploaded or picked file keeps when it is stored.
 */
import path from 'node:path';
import type { OutputFormat, TranscriptFormat } from './openapi';

/** The Content-Type of a TTS output, by `outputFormat`. */
export const AUDIO_MEDIA_TYPES: Readonly<Record<OutputFormat, string>> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  aac: 'audio/aac',
  flac: 'audio/flac',
};

/**
 * The Content-Type of the engine's formats beyond the Local API's (the OpenAI door's opus and pcm, the editor's m4a), for the
 * output of a job that door created; never a value of a Local API request.
 */
export const EXTRA_AUDIO_MEDIA_TYPES: Readonly<Record<'opus' | 'pcm' | 'm4a', string>> = {
  m4a: 'audio/mp4',
  opus: 'audio/ogg',
  pcm: 'audio/pcm',
};

/** The Content-Type of a transcript, by `format` of GET /jobs/{id}/transcript. */
export const TRANSCRIPT_MEDIA_TYPES: Readonly<Record<TranscriptFormat, string>> = {
  txt: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  'json-simple': 'application/json',
  'json-full': 'application/json',
};

/** The stored transcript a device sends back to the relay. */
export const STORED_TRANSCRIPT_MEDIA_TYPE = 'application/json';

/**
 * Audio and video extensions (without the dot) that Speech Studio transcribes. package.json repeats them
 * in the explorer menus' `when` clauses, which cannot import; a unit test keeps the two equal.
 */
export const MEDIA_EXTENSIONS: readonly string[] = [
  'wav',
  'mp3',
  'flac',
  'ogg',
  'oga',
  'opus',
  'aac',
  'm4a',
  'mp4',
  'm4v',
  'mov',
  'webm',
  'mkv',
];

/** The Content-Type of a TTS output, or of the transcript when `format` is not an audio format. */
export const outputMediaType = (format: string): string =>
  Object.hasOwn(AUDIO_MEDIA_TYPES, format) ? AUDIO_MEDIA_TYPES[format as OutputFormat] : STORED_TRANSCRIPT_MEDIA_TYPE;

/**
 * The name a media input gets in storage: never the client's own name, which may hold `../` or worse;
 * only its extension survives, and only when it is a known media extension (ffmpeg probes the content).
 * @example
 * storedInputName('../../Talk.MP4') // 'input.mp4'
 * storedInputName('notes.exe')      // 'input.media'
 */
export function storedInputName(originalName: string): string {
  const extension = path.extname(originalName).slice(1).toLowerCase();
  return `input.${MEDIA_EXTENSIONS.includes(extension) ? extension : 'media'}`;
}

/** A video container a subtitle track can be embedded in, by output extension (the engine's codec table is keyed by them). */
export type EmbedContainer = '.mp4' | '.m4v' | '.mov' | '.webm' | '.mkv';
export const EMBED_CONTAINERS: readonly string[] = [
  '.mp4',
  '.m4v',
  '.mov',
  '.webm',
  '.mkv',
] satisfies readonly EmbedContainer[];

/** A video container a dub can be written to, by output extension (the engine's audio codec table is keyed by them). */
export type DubContainer = '.mp4' | '.m4v' | '.mov' | '.mkv' | '.webm';
export const DUB_CONTAINERS: readonly string[] = [
  '.mp4',
  '.m4v',
  '.mov',
  '.mkv',
  '.webm',
] satisfies readonly DubContainer[];
