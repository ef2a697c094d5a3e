/** Where the finished mono samples go: a WAV file written directly, or ffmpeg for mp3, aac and flac. */
import { endianness } from 'node:os';
import type { EncoderSettings } from './encoder-settings';
import { FfmpegEncoder } from './ffmpeg-encoder';
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
export async function openAudioSink(path: string, settings: EncoderSettings, ffmpeg?: string, live = false): Promise<AudioSink> {
  if (settings.format === 'wav') return WavWriter.create(path, { sampleRate: settings.sampleRate, channels: settings.channels });
  if (endianness() === 'BE') throw new Error('Encoding through ffmpeg expects a little-endian machine.');
  return FfmpegEncoder.start(path, settings, ffmpeg, live);
}
