/**
 * Runs an alignment job inside the engine process: decode the media (cropped as asked) → Silero VAD, when a
 * model is installed (on excerpts of long media) → align the script (align-speech.ts) → when a whisper model is
 * installed, refine the boundaries where its words agree (refine-boundaries.ts) → write the transcript, whose
 * segments are the script's units that were found, with their words. Times are relative to the original media.
 */
import { readFile } from 'node:fs/promises';
import { TRANSCRIPT_FORMATS } from '../../contract/openapi';
import type { AlignmentRefinement, SttResult } from '../../contract/types';
import { readScript } from '../../subtitles/script';
import type { Transcript, TranscriptSegment } from '../../subtitles/types';
import { SPEECH_SAMPLE_RATE } from '../media/decode-pcm16';
import { mediaToolchain } from '../media/media-toolchain';
import {
  ALIGN_BACKEND,
  UserFacingError,
  type AlignTask,
  type ProgressReporter,
  type TaskOutcome,
} from '../../engine-api/protocol';
import { decodeInput } from '../stt/decode-input';
import { detectSpeech } from '../stt/speech-vad';
import { sttThreadCount } from '../stt/whisper-session';
import { writeTranscript } from '../stt/write-transcript';
import { alignSpeech } from './align-speech';
import { openAlignRecognizer } from './recognizer-words';
import { refineBoundaries } from './refine-boundaries';
import { renditionVoice } from './rendition';
import { joinExcerpts, spansInMedia, vadExcerpts } from './vad-excerpts';

/** Shares of the job's progress: decoding, VAD, synthesis, matching (refining, when a recognizer is installed, is in the last 5). */
const SHARES = { decoding: 10, vad: 15, synthesizing: 40, matching: 30 };

const round = (seconds: number): number => Math.round(seconds * 1000) / 1000;

export async function runAlignTask(task: AlignTask, report: ProgressReporter): Promise<TaskOutcome<SttResult>> {
  const units = readScript(await readFile(task.scriptPath, 'utf8'), task.scriptFormat);
  if (units.length === 0) throw new UserFacingError('The script has no words to align.');
  const voice = renditionVoice(task.options.language);

  report('decoding', 0);
  const input = await decodeInput(task.inputPath, task.options, mediaToolchain(), (fraction) =>
    report('decoding', SHARES.decoding * fraction),
  );
  let at = SHARES.decoding;
  report('detecting_speech', at);
  // VAD hears long media in excerpts (vad-excerpts.ts): it only measures the noise floor.
  const heard = vadExcerpts(input.pcm.length / SPEECH_SAMPLE_RATE);
  const speech = task.vadModelPath
    ? spansInMedia(
        await detectSpeech(
          joinExcerpts(input.pcm, SPEECH_SAMPLE_RATE, heard),
          task.vadModelPath,
          sttThreadCount(),
          (fraction) => report('detecting_speech', at + SHARES.vad * fraction),
        ),
        heard,
      )
    : null;
  at += SHARES.vad;
  const alignment = await alignSpeech({
    pcm: input.pcm,
    sampleRate: SPEECH_SAMPLE_RATE,
    speech,
    heard,
    texts: units.map((unit) => unit.spoken),
    voice,
    onProgress: (step, fraction) => {
      if (step === 'synthesizing') report('synthesizing', at + SHARES.synthesizing * fraction);
      else report('transcribing', at + SHARES.synthesizing + SHARES.matching * fraction);
    },
  });

  report('postprocessing', 95);
  let placedUnits = alignment.units;
  let refinedBy: AlignmentRefinement | undefined;
  const recognizer = task.recognizerModelPath
    ? await openAlignRecognizer(
        task.recognizerModelPath,
        task.options.language,
        input.pcm,
        SPEECH_SAMPLE_RATE,
        sttThreadCount(),
      )
    : null;
  if (recognizer) {
    const refinement = await refineBoundaries(placedUnits, input.pcm.length / SPEECH_SAMPLE_RATE, recognizer.recognize);
    placedUnits = refinement.units;
    refinedBy = {
      recognizer: 'whisper.cpp',
      model: recognizer.model,
      movedBoundaries: refinement.movedBoundaries,
      agreedWords: refinement.agreedWords,
    };
  }
  const offset = input.startSeconds;
  const segments: TranscriptSegment[] = [];
  const unmatchedCues: Array<{ index: number; text: string }> = [];
  placedUnits.forEach((placed, i) => {
    const unit = units[i];
    if (!placed.matched) {
      unmatchedCues.push({ index: unit.index, text: unit.text });
      return;
    }
    segments.push({
      start: round(offset + placed.start),
      end: round(offset + placed.end),
      text: unit.text,
      ...(unit.speaker ? { speaker: unit.speaker } : {}),
      words: placed.words.map((word) => ({
        start: round(offset + word.start),
        end: round(offset + word.end),
        text: word.text,
        probability: null,
      })),
    });
  });
  const language = task.options.language === 'auto' ? 'en' : task.options.language;
  const transcript: Transcript = {
    text: segments.map((segment) => segment.text.replace(/\s+/g, ' ')).join(' '),
    language,
    durationSeconds: round(input.durationSeconds),
    segments,
    speakers: null,
    options: task.options,
    backend: ALIGN_BACKEND,
    model: `espeak-ng ${voice}`,
    wordTiming: 'aligned',
  };
  await writeTranscript(task.workDir, transcript);
  return {
    backend: ALIGN_BACKEND,
    result: {
      language,
      durationSeconds: transcript.durationSeconds,
      segmentCount: segments.length,
      speakerCount: null,
      transcriptFormats: [...TRANSCRIPT_FORMATS],
      model: transcript.model,
      aligned: true,
      matchedCues: segments.length,
      unmatchedCues,
      ...(refinedBy ? { refinedBy } : {}),
    },
  };
}
