import type { SttOptions } from '../../contract/types';
import { decodeToPcm16, SPEECH_SAMPLE_RATE } from '../media/decode-pcm16';
import type { MediaToolchain } from '../media/media-toolchain';
import { probeMedia } from '../media/probe-media';
import { UserFacingError } from '../../engine-api/protocol';

/**
 * The longest audio one job transcribes: 4 hours (16 kHz 16-bit samples: 460 MB in the engine). Longer
 * media is transcribed in parts with cropStartSeconds/cropEndSeconds. It also bounds what a tiny file that
 * decodes to hours of samples (a compression bomb) can cost.
 */
export const MAX_TRANSCRIBE_SECONDS = 4 * 3600;

export interface DecodedInput {
  /** The part to transcribe, 16 kHz mono 16-bit. */
  pcm: Int16Array;
  /** Length of the whole original media. */
  durationSeconds: number;
  /** Where `pcm` starts and ends in the original media. */
  startSeconds: number;
  endSeconds: number;
}

/**
 * Probes, checks and decodes the uploaded file (the cropped part only), turning every way it can be
 * unusable into a sentence for the user.
 */
export async function decodeInput(
  inputPath: string,
  options: Pick<SttOptions, 'cropStartSeconds' | 'cropEndSeconds'>,
  tools: MediaToolchain,
  onProgress: (fraction: number) => void,
  /** Stops the decoding with TaskYieldedError (a speech-regions task yielding its process). */
  yieldSignal?: AbortSignal,
): Promise<DecodedInput> {
  const probe = await probeMedia(inputPath, tools);
  if (!probe.hasAudio) throw new UserFacingError('The file has no audio stream.');
  const duration = probe.durationSeconds;
  if (duration === 0) throw new UserFacingError('The file contains no audio (0 seconds).');

  const start = options.cropStartSeconds ?? 0;
  const cropEnd = options.cropEndSeconds;
  if (cropEnd !== undefined && cropEnd <= start) {
    throw new UserFacingError(`The crop end (${cropEnd} s) must be after the crop start (${start} s).`);
  }
  if (duration !== null && start > 0 && start >= duration) throw cropBeyondEnd(start, duration);
  const end = cropEnd === undefined ? duration : duration === null ? cropEnd : Math.min(cropEnd, duration);
  if (end !== null && end - start > MAX_TRANSCRIBE_SECONDS) throw tooLong(end - start);

  const pcm = await decodeToPcm16(inputPath, tools, {
    startSeconds: start,
    endSeconds: cropEnd,
    expectedSeconds: end === null ? undefined : end - start,
    onProgress,
    maxSeconds: MAX_TRANSCRIBE_SECONDS,
    tooLong: () => tooLong(null),
    yieldSignal,
  });
  if (pcm.length === 0) {
    if (start > 0) throw cropBeyondEnd(start, duration);
    throw new UserFacingError('The file contains no audio (0 seconds).');
  }
  const decodedEnd = start + pcm.length / SPEECH_SAMPLE_RATE;
  const decodedToTheEnd = cropEnd === undefined || (duration !== null && cropEnd >= duration);
  return {
    pcm,
    // Decoded to the end, the decoded length is exact; container durations can be estimates (ADTS AAC).
    durationSeconds: decodedToTheEnd ? decodedEnd : (duration ?? decodedEnd),
    startSeconds: start,
    endSeconds: decodedEnd,
  };
}

function tooLong(seconds: number | null): UserFacingError {
  const limit = MAX_TRANSCRIBE_SECONDS / 3600;
  const length =
    seconds === null
      ? 'longer than that'
      : `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min long`;
  return new UserFacingError(
    `A job transcribes at most ${limit} hours of audio, and the part to transcribe is ${length}: ` +
      'split it with cropStartSeconds and cropEndSeconds.',
  );
}

function cropBeyondEnd(start: number, duration: number | null): UserFacingError {
  const length = duration === null ? '' : ` (${Math.round(duration * 1000) / 1000} s)`;
  return new UserFacingError(`The crop start (${start} s) is at or beyond the end of the file${length}.`);
}
