/**
 * `node dist/cli.js captions --out live.srt [--input FILE | --device D --device-format F] [--language L]`:
 * live captions into a subtitle file, from the microphone (ffmpeg's default capture device for the platform),
 * another capture device (system audio: a PulseAudio monitor, a loopback device), or a media file read at its
 * real pace (src/host/live-captions.ts). Each finished utterance is appended as a cue while it runs; Ctrl+C
 * stops, and what was still being said still becomes a cue. Running it again on the same file resumes.
 */
import type { EngineConfig } from '../engine-api/engine-config';
import { UsageError } from '../util/usage-error';

export interface CaptionsFlags {
  out?: string;
  input?: string;
  device?: string;
  'device-format'?: string;
  language?: string;
  'silence-ms'?: string;
}

/** Runs until the input ends or Ctrl+C / SIGTERM; answers the exit code. */
export async function runCaptionsCommand(
  flags: CaptionsFlags,
  place: { dataDir: string; engineConfig: EngineConfig },
): Promise<number> {
  if (!flags.out) throw new UsageError('captions needs --out, the subtitle file to write (e.g. live.srt).');
  if (!/\.(srt|vtt)$/i.test(flags.out)) throw new UsageError('captions writes an .srt or .vtt file: name --out so.');
  if (flags.input && (flags.device || flags['device-format']))
    throw new UsageError('captions takes --input (a file) or --device (a capture device), not both.');
  const silenceMs = flags['silence-ms'] === undefined ? undefined : Number(flags['silence-ms']);
  if (silenceMs !== undefined && !(Number.isInteger(silenceMs) && silenceMs >= 200 && silenceMs <= 5000))
    throw new UsageError('--silence-ms must be a whole number of milliseconds from 200 to 5000.');
  const { defaultMicrophone, runLiveCaptions } = await import('../host/live-captions');
  const microphone = defaultMicrophone();
  const source = flags.input
    ? { file: flags.input }
    : { device: flags.device ?? microphone.device, format: flags['device-format'] ?? microphone.format };
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Warnings go to stderr (stdout carries one line per cue); the engine process's own chatter (whisper.cpp's
  // stderr, forwarded as "[engine PID] …") is not shown: a failed utterance is reported by the session.
  const log = {
    info: () => undefined,
    warn: (message: string) => void (message.startsWith('[engine ') || console.error(message)),
    error: (message: string) => console.error(message),
  };
  try {
    console.error(
      `Captions into ${flags.out} from ${'file' in source ? source.file : `${source.format} ${source.device}`}; Ctrl+C stops.`,
    );
    const { cues } = await runLiveCaptions({
      dataDir: place.dataDir,
      engineConfig: place.engineConfig,
      out: flags.out,
      source,
      log,
      signal: controller.signal,
      ...(flags.language ? { language: flags.language } : {}),
      ...(silenceMs !== undefined ? { silenceMs } : {}),
      onListening: () => console.error('Listening.'),
      onCaption: (caption) => console.log(`${caption.start.toFixed(2)}–${caption.end.toFixed(2)} ${caption.text}`),
    });
    console.error(`Stopped: ${cues} cue${cues === 1 ? '' : 's'} written to ${flags.out}.`);
    return 0;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
