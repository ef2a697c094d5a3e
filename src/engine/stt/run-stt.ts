import path from 'node:path';
import { TRANSCRIPT_FORMATS } from '../../contract/openapi';
import type { SttResult } from '../../contract/types';
import type { Transcript } from '../../subtitles/types';
import { SPEECH_SAMPLE_RATE } from '../media/decode-pcm16';
import { mediaToolchain } from '../media/media-toolchain';
import {
  STT_BACKEND,
  UserFacingError,
  type ProgressReporter,
  type SttTask,
  type TaskOutcome,
} from '../../engine-api/protocol';
import { assignSpeakers, type SpeakerAssignment } from './assign-speakers';
import { nameSpeakers, referenceVoices } from './name-speakers';
import { buildSegments } from './build-segments';
import { decodeInput } from './decode-input';
import { flagSegments } from './flag-segments';
import { diarizeSpeakers, type SpeakerTurn } from './diarize';
import { engineConfig } from '../../engine-api/engine-config';
import { findDiarizationModels, findVadModel } from '../../models/model-files';
import { openRecognizer } from './recognizers/open-recognizer';
import type { Recognition, SttRecognizer } from './recognizers/recognizer';
import { compactSpeech, type SpeechTimeline } from './speech-timeline';
import { detectSpeech } from './speech-vad';
import { createSttProgress, type StepReporter } from './stt-progress';
import { toWhisperLanguage } from '../../models/whisper-languages';
import { sttThreadCount, type WhisperSegment } from './whisper-session';
import { segmentsFromPieces } from './word-segments';
import { writeTranscript } from './write-transcript';

export { STT_BACKEND };

/** Language reported when `auto` was asked and there was no speech to detect it from (BCP-47 "undetermined"). */
export const UNDETERMINED_LANGUAGE = 'und';

// The share of the transcribing step that the VAD pass takes, when it runs (a rough guess: VAD costs
// about 5 % of real time, the recognizer several times that).
const VAD_SHARE = 0.15;

/**
 * Runs one STT job inside the engine process: decode (ffmpeg) → load the model's recognizer, whisper.cpp or
 * Parakeet (kept warm between jobs) → VAD (when a Silero model is installed) → transcribe → diarize (when
 * asked and installed) → write `<workDir>/transcript.json`. Times in the transcript are relative to the
 * original file, also when cropped. Cancel by ending the process: the binding cannot stop a running
 * transcription.
 */
export async function runSttTask(task: SttTask, report: ProgressReporter): Promise<TaskOutcome<SttResult>> {
  const progress = createSttProgress(report);
  const { options } = task;
  const requested = toWhisperLanguage(options.language);
  if (requested === null) {
    throw new UserFacingError(
      `Whisper cannot transcribe the language "${options.language}"; use a code such as en, de or fr, or auto.`,
    );
  }
  const threads = sttThreadCount();

  progress('decoding', 0);
  const input = await decodeInput(task.inputPath, options, mediaToolchain(), (fraction) =>
    progress('decoding', fraction),
  );
  progress('decoding', 1);

  progress('loading_model', 0);
  const recognizer = await openRecognizer(task.modelPath, requested);
  progress('loading_model', 1);

  const speech = await keepSpeech(task.modelPath, input.pcm, threads, progress);
  // Live segments in the original media's time, for clients that follow the job (SSE, streamed transcription).
  const toSource = (ms: number): number =>
    Math.round(Math.min(input.endSeconds, input.startSeconds + speech.toSourceSeconds(ms / 1000)) * 1000) / 1000;
  const onSegments = report.segments
    ? (found: WhisperSegment[]) =>
        report.segments?.(
          found
            .map((segment) => ({
              start: toSource(segment.startMs),
              end: toSource(segment.endMs),
              text: segment.text.trim(),
            }))
            .filter((segment) => segment.text.length > 0),
        )
    : undefined;
  const recognized = await recognize(recognizer, speech, requested, threads, progress, {
    hints: task.whisper,
    onSegments,
  });

  const placement = {
    toDecodedSeconds: speech.toSourceSeconds,
    offsetSeconds: input.startSeconds,
    endSeconds: input.endSeconds,
    punctuation: options.punctuation,
  };
  const built =
    recognized.timing === 'tokens'
      ? segmentsFromPieces(recognized.pieces, recognized.text, placement)
      : buildSegments(recognized.pieces, placement);

  const diarized = options.diarizationEnabled
    ? await diarize(task, input.pcm, input.startSeconds, threads, progress)
    : null;
  const assigned = diarized
    ? await namedSpeakers(task, assignSpeakers(built.segments, diarized), input.pcm, input.startSeconds, threads)
    : { segments: built.segments, speakers: null };
  const speakers = assigned.speakers;
  const segments = flagSegments(assigned.segments, speech.heard, input.startSeconds);

  progress('postprocessing', 0);
  const transcript: Transcript = {
    text: built.text,
    language: recognized.language,
    durationSeconds: Math.round(input.durationSeconds * 1000) / 1000,
    segments,
    speakers,
    options,
    backend: recognizer.engine,
    model: path.basename(task.modelPath),
    wordTiming: built.wordTiming,
  };
  await writeTranscript(task.workDir, transcript);
  progress('postprocessing', 1);

  return {
    backend: recognizer.backend,
    result: {
      language: transcript.language,
      durationSeconds: transcript.durationSeconds,
      segmentCount: segments.length,
      speakerCount: speakers === null ? null : speakers.length,
      transcriptFormats: [...TRANSCRIPT_FORMATS],
      model: transcript.model,
      ...(requested === 'auto' && recognizer.engine === 'whisper.cpp' && recognizer.language === 'en'
        ? {
            languageNote: `auto means English here: the model ${transcript.model} is English-only, so it cannot detect a language.`,
          }
        : {}),
      // What whisper was given beyond the contract's options (only when something was).
      ...(task.whisper && Object.keys(task.whisper).length > 0
        ? {
            whisper: {
              prompt: task.whisper.prompt !== undefined,
              task: task.whisper.translate ? 'translate' : 'transcribe',
              temperature: task.whisper.temperature ?? 0,
            },
          }
        : {}),
    },
  };
}

export interface Speech extends SpeechTimeline {
  /** How much of the transcribing step's progress the VAD pass took. */
  vadShare: number;
  /** Where VAD heard speech, in seconds of the decoded audio; absent when no VAD model is installed. */
  heard?: { start: number; end: number }[];
}

/** Only the speech, when a VAD model is installed; else all of the audio. */
export async function keepSpeech(
  modelPath: string,
  pcm: Int16Array,
  threads: number,
  progress: StepReporter,
): Promise<Speech> {
  const vadModel = await findVadModel(modelPath, engineConfig());
  progress('transcribing', 0);
  if (!vadModel) {
    const all = [{ start: 0, end: pcm.length / SPEECH_SAMPLE_RATE }];
    return { samples: pcm, toSourceSeconds: (seconds) => seconds, stretches: all, vadShare: 0 };
  }
  const ranges = await detectSpeech(pcm, vadModel, threads, (fraction) =>
    progress('transcribing', VAD_SHARE * fraction),
  );
  return { ...compactSpeech(pcm, ranges, SPEECH_SAMPLE_RATE), vadShare: VAD_SHARE, heard: ranges };
}

export async function recognize(
  recognizer: SttRecognizer,
  speech: Speech,
  requested: string,
  threads: number,
  progress: StepReporter,
  extra: { hints?: SttTask['whisper']; onSegments?: (pieces: WhisperSegment[]) => void },
): Promise<Recognition> {
  // Nothing was heard, so nothing was detected: `auto` stays undetermined even on an English-only model.
  if (speech.samples.length === 0) {
    return {
      language: requested === 'auto' ? UNDETERMINED_LANGUAGE : recognizer.language,
      pieces: [],
      text: '',
      timing: 'tokens',
    };
  }
  // whisper detects the language before its first progress report, which switches back to transcribing
  // (Parakeet has no such step: it recognizes whatever of its languages it hears).
  if (recognizer.engine === 'whisper.cpp' && recognizer.language === 'auto') progress('detecting_language', 0);
  const recognition = await recognizer.recognize({
    samples: speech.samples,
    stretches: speech.stretches,
    threads,
    onProgress: (fraction) => progress('transcribing', speech.vadShare + (1 - speech.vadShare) * fraction),
    ...(extra.onSegments ? { onPieces: extra.onSegments } : {}),
    ...(extra.hints ? { hints: extra.hints } : {}),
  });
  progress('transcribing', 1);
  return recognition;
}

/** The speakers whose voice matches a reference clip of the job or an enrolled speaker, named. */
async function namedSpeakers(
  task: SttTask,
  assignment: SpeakerAssignment,
  pcm: Int16Array,
  offsetSeconds: number,
  threads: number,
): Promise<SpeakerAssignment> {
  const models = await findDiarizationModels(task.modelPath);
  if (!models) return assignment;
  const voices = await referenceVoices(task, models.embedding, threads);
  return nameSpeakers(assignment, pcm, offsetSeconds, voices, models.embedding, threads);
}

/**
 * Speaker turns in original-media seconds, or null when the diarization models are not installed (the
 * server turns diarization off or refuses the job before that; the engine just skips it).
 */
async function diarize(
  task: SttTask,
  pcm: Int16Array,
  offsetSeconds: number,
  threads: number,
  progress: StepReporter,
): Promise<SpeakerTurn[] | null> {
  const models = await findDiarizationModels(task.modelPath);
  if (!models) return null;
  progress('diarizing', 0);
  const turns = await diarizeSpeakers(pcm, models, {
    speakerCountMode: task.options.speakerCountMode,
    speakerCount: task.options.speakerCount,
    threads,
    onProgress: (fraction) => progress('diarizing', fraction),
  });
  progress('diarizing', 1);
  return turns.map((turn) => ({ ...turn, start: turn.start + offsetSeconds, end: turn.end + offsetSeconds }));
}
