/**
 * A cloning reference from any recording, in the engine process: decoded, its leading and trailing silence
 * trimmed where Silero VAD hears speech begin and end (by level when no VAD model is installed), its length
 * checked, its loudness normalized, written as 16-bit mono WAV; and, unless the text is given, its words
 * recognized with the installed recognizer, decoded as an STT job decodes them.
 */
import { SPEECH_SAMPLE_RATE } from '../media/decode-pcm16';
import { mediaToolchain } from '../media/media-toolchain';
import { measureLoudness } from '../audio/loudness';
import { WavWriter } from '../audio/wav-writer';
import {
  UserFacingError,
  type TaskOutcome,
  type VoiceReferenceResult,
  type VoiceReferenceTask,
} from '../../engine-api/protocol';
import { decodeInput } from '../stt/decode-input';
import { engineConfig } from '../../engine-api/engine-config';
import { findVadModelIn } from '../../models/model-files';
import { openRecognizer } from '../stt/recognizers/open-recognizer';
import { keepSpeech, recognize } from '../stt/run-stt';
import { detectSpeech } from '../stt/speech-vad';
import { toWhisperLanguage } from '../../models/whisper-languages';
import { sttThreadCount } from '../stt/whisper-session';
import {
  MAX_REFERENCE_SECONDS,
  REFERENCE_LOUDNESS_LUFS,
  REFERENCE_PADDING_SECONDS,
  REFERENCE_PEAK_DBFS,
  referenceLengthProblem,
} from '../../voices/reference-clip';

const ignoreProgress = (): void => undefined;

/** Where speech begins and ends by level alone: 20 ms frames louder than -45 dBFS. */
function speechByLevel(pcm: Int16Array): { start: number; end: number } | null {
  const frame = SPEECH_SAMPLE_RATE / 50;
  const threshold = 32768 * 10 ** (-45 / 20);
  let first = -1;
  let last = -1;
  for (let at = 0; at < pcm.length; at += frame) {
    let sum = 0;
    const end = Math.min(pcm.length, at + frame);
    for (let i = at; i < end; i++) sum += pcm[i] * pcm[i];
    if (Math.sqrt(sum / (end - at)) > threshold) {
      if (first < 0) first = at;
      last = end;
    }
  }
  return first < 0 ? null : { start: first / SPEECH_SAMPLE_RATE, end: last / SPEECH_SAMPLE_RATE };
}

/** The gain that brings the clip to the reference loudness without its peak passing the ceiling. */
function normalized(pcm: Int16Array): Int16Array {
  const lufs = measureLoudness(pcm, SPEECH_SAMPLE_RATE);
  let peak = 0;
  for (const sample of pcm) peak = Math.max(peak, Math.abs(sample));
  if (!Number.isFinite(lufs) || peak === 0) return pcm;
  const gain = Math.min(
    10 ** ((REFERENCE_LOUDNESS_LUFS - lufs) / 20),
    (32767 * 10 ** (REFERENCE_PEAK_DBFS / 20)) / peak,
  );
  return Int16Array.from(pcm, (sample) => Math.max(-32768, Math.min(32767, Math.round(sample * gain))));
}

/** How much of a recording past the longest reference is decoded: room for silence or talk before the voice. */
const REFERENCE_DECODE_SLACK_SECONDS = 60;

export async function runVoiceReferenceTask(task: VoiceReferenceTask): Promise<TaskOutcome<VoiceReferenceResult>> {
  const threads = sttThreadCount();
  // A reference holds MAX_REFERENCE_SECONDS of speech at most: a minute past that is enough to find where the
  // speech begins and to say a longer recording is too long (two hours were decoded whole before).
  const input = await decodeInput(
    task.inputPath,
    { cropEndSeconds: MAX_REFERENCE_SECONDS + REFERENCE_DECODE_SLACK_SECONDS },
    mediaToolchain(),
    ignoreProgress,
  );
  const vadModel = await findVadModelIn(task.modelsDir, engineConfig());
  let span: { start: number; end: number } | null;
  if (vadModel) {
    const ranges = await detectSpeech(input.pcm, vadModel, threads);
    span = ranges.length > 0 ? { start: ranges[0].start, end: ranges[ranges.length - 1].end } : null;
  } else {
    span = speechByLevel(input.pcm);
  }
  const total = input.pcm.length / SPEECH_SAMPLE_RATE;
  const start = span ? Math.max(0, span.start - REFERENCE_PADDING_SECONDS) : 0;
  const end = span ? Math.min(total, span.end + REFERENCE_PADDING_SECONDS) : 0;
  const speechSeconds = Math.round((end - start) * 100) / 100;
  const problem = referenceLengthProblem(speechSeconds);
  if (problem) throw new UserFacingError(problem);

  const clip = normalized(
    input.pcm.subarray(Math.floor(start * SPEECH_SAMPLE_RATE), Math.ceil(end * SPEECH_SAMPLE_RATE)),
  );
  const writer = await WavWriter.create(task.outputPath, { sampleRate: SPEECH_SAMPLE_RATE, channels: 1 });
  await writer.write(clip);
  await writer.close();

  let text = task.text?.trim() ?? '';
  let language = task.language ?? null;
  let backend = 'silero-vad';
  if (!text) {
    if (!task.recognizerModelPath)
      throw new UserFacingError(
        'No speech-to-text model is installed to recognize what the recording says: install one, or give the text.',
      );
    const requested = toWhisperLanguage(task.language ?? 'auto') ?? 'auto';
    const recognizer = await openRecognizer(task.recognizerModelPath, requested);
    const kept = await keepSpeech(task.recognizerModelPath, clip, threads, ignoreProgress);
    const recognized = await recognize(recognizer, kept, requested, threads, ignoreProgress, {});
    text = recognized.text.replace(/\s+/g, ' ').trim();
    language = recognized.language === 'und' ? language : recognized.language;
    backend = recognizer.backend;
    // Nothing recognized is an answer, not a failure: the editor asks for the words, the CLI for --text.
  }
  return { backend, result: { speechSeconds, trimmedStartSeconds: Math.round(start * 100) / 100, text, language } };
}
