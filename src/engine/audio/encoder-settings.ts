/**
 * What each output format means for ffmpeg: codec, container, media type, and the bitrate the encoder
 * really uses (MPEG-2 layer III stops at 160 kbps below 32 kHz; AAC at 6144 bits per channel and frame).
 */
import type { OutputFormat } from '../../contract/openapi';
import type { ExtraOutputFormat } from '../../engine-api/protocol';

export { AUDIO_MEDIA_TYPES as MEDIA_TYPES } from '../../contract/media-types';
export type { ExtraOutputFormat };

/** Everything the engine's encoders write. */
export type EngineOutputFormat = OutputFormat | ExtraOutputFormat;

export const EXTRA_OUTPUT_FORMATS: readonly ExtraOutputFormat[] = ['opus', 'pcm', 'm4a'];

export interface EncoderSettings {
  format: EngineOutputFormat;
  sampleRate: number;
  channels: 1 | 2;
  /** null: the encoder's default. Ignored by wav and flac. */
  bitrateKbps: number | null;
}

/** Formats that carry a bitrate; wav, flac and pcm are lossless and ignore it (opus has its own fixed speech rate). */
export const usesBitrate = (format: EngineOutputFormat): boolean => format === 'mp3' || format === 'aac';

/** Written by the engine itself, without ffmpeg. */
export const isWrittenWithoutFfmpeg = (format: EngineOutputFormat): boolean => format === 'wav' || format === 'pcm';

/** Ogg Opus for speech at 48 kbps, in short pages so a streaming reader gets audio early. */
const OPUS_KBPS = 48;
const OPUS_ARGS = [
  '-c:a',
  'libopus',
  '-b:a',
  `${OPUS_KBPS}k`,
  '-application',
  'voip',
  '-page_duration',
  '200000',
  '-f',
  'ogg',
];

/** The bitrate the encoder will really use for the request, or null for its default or a lossless format. */
export function effectiveBitrateKbps({ format, sampleRate, channels, bitrateKbps }: EncoderSettings): number | null {
  if (!usesBitrate(format) || bitrateKbps === null) return null;
  if (format === 'mp3') return Math.min(bitrateKbps, sampleRate < 32_000 ? 160 : 320);
  return Math.min(bitrateKbps, Math.floor((6144 * channels * sampleRate) / 1024 / 1000));
}

/** ffmpeg's output arguments (codec, bitrate, container) for an encoded format; wav and pcm are written without ffmpeg. */
export function ffmpegOutputArgs(settings: EncoderSettings): string[] {
  const bitrate = effectiveBitrateKbps(settings);
  const rate = bitrate === null ? [] : ['-b:a', `${bitrate}k`];
  switch (settings.format) {
    case 'mp3':
      return ['-c:a', 'libmp3lame', ...rate, '-f', 'mp3'];
    case 'aac':
      return ['-c:a', 'aac', ...rate, '-f', 'adts'];
    case 'flac':
      return ['-c:a', 'flac', '-sample_fmt', 's16', '-f', 'flac'];
    case 'opus':
      return OPUS_ARGS;
    case 'm4a':
      // AAC in an MP4 container (the editor's Save As); ffmpeg seeks back to write the index, so never live.
      return ['-c:a', 'aac', '-f', 'ipod'];
    case 'wav':
      return ['-c:a', 'pcm_s16le', '-f', 'wav'];
    case 'pcm':
      return ['-c:a', 'pcm_s16le', '-f', 's16le'];
  }
}

/**
 * What ffmpeg adds when a reader streams the file while it grows: each packet written at once, and for mp3
 * no Xing header, whose frame count is written before the end and would tell players the audio is empty
 * (the streamed copy never sees ffmpeg's rewrite of it).
 */
function liveOutputArgs(settings: EncoderSettings): string[] {
  return ['-flush_packets', '1', ...(settings.format === 'mp3' ? ['-write_xing', '0'] : [])];
}

/**
 * What ffmpeg is told of a live input: raw PCM, which the arguments describe in full, so nothing to probe.
 * Without these ffmpeg reads 5 s of audio (or the end of its input) before it encodes the first frame, and a
 * short first sentence leaves only when the next ones have been spoken.
 */
const LIVE_INPUT_ARGS = ['-probesize', '32', '-analyzeduration', '0'];

/** The whole ffmpeg command line that encodes 16-bit PCM from `input` into `output` in the settings' format. */
export function encoderArgs(settings: EncoderSettings, input: string, output: string, live: boolean): string[] {
  return [
    '-nostdin',
    '-hide_banner',
    '-nostats',
    '-v',
    'error',
    '-y',
    ...(live ? LIVE_INPUT_ARGS : []),
    '-f',
    's16le',
    '-ar',
    String(settings.sampleRate),
    '-ac',
    String(settings.channels),
    '-i',
    input,
    ...ffmpegOutputArgs(settings),
    ...(live ? liveOutputArgs(settings) : []),
    output,
  ];
}

/** Bitrate ffmpeg's mp3 and aac encoders use when none is given. */
const DEFAULT_LOSSY_KBPS = 128;

/**
 * About how many bytes `frames` of audio take in the output format, for the free-space check before
 * encoding: exact for wav, by bitrate for mp3 and aac, and the PCM size (an upper bound) for flac.
 */
export function estimatedOutputBytes(settings: EncoderSettings, frames: number): number {
  const pcmBytes = frames * settings.channels * 2;
  if (settings.format === 'opus') return Math.ceil(((frames / settings.sampleRate) * OPUS_KBPS * 1000) / 8) + 4096;
  if (!usesBitrate(settings.format)) return pcmBytes + 44;
  const kbps = effectiveBitrateKbps(settings) ?? DEFAULT_LOSSY_KBPS;
  return Math.ceil(((frames / settings.sampleRate) * kbps * 1000) / 8);
}
