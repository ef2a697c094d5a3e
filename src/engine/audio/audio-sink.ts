/** Where the finished mono samples go: a WAV or raw PCM file written directly, or ffmpeg (system or WebAssembly) for mp3, aac, flac and opus. */
import { endianness } from 'node:os';
import type { EncoderSettings } from './encoder-settings';
import { isWasmMedia, mediaToolchain, type MediaToolchain } from '../media/media-toolchain';
import { FfmpegEncoder } from './ffmpeg-encoder';
import { WasmEncoder } from './wasm-encoder';
import { WavWriter } from './wav-writer';

export interface AudioSink {
  /** Mono samples at the output rate; stereo duplicates them. */
  write(samples: Int16Array): Promise<void>;
  /** `count` frames of silence, written as cheaply as the format allows (a hole in a WAV file). */
  writeSilence(count: number): Promise<void>;
  finish(): Promise<{ bytes: number; frames: number }>;
  abort(): Promise<void>;
}

/** `live`: every encoded packet reaches the file at once, for a reader streaming the growing file. */
export async function openAudioSink(
  path: string,
  settings: EncoderSettings,
  tools: MediaToolchain = mediaToolchain(),
  live = false,
): Promise<AudioSink> {
  if (settings.format === 'wav' || settings.format === 'pcm') {
    return WavWriter.create(path, {
      sampleRate: settings.sampleRate,
      channels: settings.channels,
      raw: settings.format === 'pcm',
    });
  }
  // Stereo libopus crashes the WebAssembly build: its opus is mono.
  if (settings.format === 'opus' && isWasmMedia(tools)) settings = { ...settings, channels: 1 };
  if (endianness() === 'BE') throw new Error('Encoding through ffmpeg expects a little-endian machine.');
  if (isWasmMedia(tools)) return WasmEncoder.start(path, settings, live);
  return FfmpegEncoder.start(path, settings, tools.ffmpeg, live);
}
