/**
 * The voice of an enrollment clip (or of the given stretches of a media file: one speaker's segments): decoded, reduced to its speech by VAD (all of it without a VAD model),
 * and embedded with the diarization embedding model. A clip with no speech, or too little, is refused with
 * a sentence, before anything is stored.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { MIN_ENROLL_SPEECH_SECONDS } from '../../voices/known-speakers';
import { SPEECH_SAMPLE_RATE } from '../media/decode-pcm16';
import { mediaToolchain } from '../media/media-toolchain';
import {
  UserFacingError,
  type SpeakerEmbeddingResult,
  type SpeakerEmbeddingTask,
  type TaskOutcome,
} from '../../engine-api/protocol';
import { decodeInput } from './decode-input';
import { engineConfig } from '../../engine-api/engine-config';
import { findVadModelIn } from '../../models/model-files';
import { speakerEmbedding } from './speaker-embedding';
import { compactSpeech } from './speech-timeline';
import { detectSpeech } from './speech-vad';
import { sttThreadCount } from './whisper-session';

/** An enrollment clip is decoded this far at most: minutes more speech do not change a voice's embedding. */
const MAX_ENROLL_DECODE_SECONDS = 300;

export async function runSpeakerEmbeddingTask(
  task: SpeakerEmbeddingTask,
): Promise<TaskOutcome<SpeakerEmbeddingResult>> {
  const model = path.join(task.modelsDir, 'diarization', 'embedding.onnx');
  await access(model).catch(() => {
    throw new UserFacingError(
      'Speakers are recognized with the diarization models, which are not installed: install them first (models install).',
    );
  });
  const threads = sttThreadCount();
  // Only what is used is decoded: a clip's first minutes (an hour-long clip took 980 MB), or a media file
  // up to the end of the last stretch asked for.
  const lastEnd = task.ranges?.reduce((latest, range) => Math.max(latest, range.end), 0);
  const cropEndSeconds = lastEnd === undefined ? MAX_ENROLL_DECODE_SECONDS : lastEnd;
  const input = await decodeInput(task.inputPath, { cropEndSeconds }, mediaToolchain(), () => undefined);
  const pcm = task.ranges ? compactSpeech(input.pcm, task.ranges, SPEECH_SAMPLE_RATE).samples : input.pcm;
  const vadModel = await findVadModelIn(task.modelsDir, engineConfig());
  const speech = vadModel
    ? compactSpeech(pcm, await detectSpeech(pcm, vadModel, threads), SPEECH_SAMPLE_RATE).samples
    : pcm;
  const speechSeconds = Math.round((speech.length / SPEECH_SAMPLE_RATE) * 100) / 100;
  if (speechSeconds === 0) throw new UserFacingError('The clip holds no speech.');
  if (speechSeconds < MIN_ENROLL_SPEECH_SECONDS) {
    throw new UserFacingError(
      `The clip holds ${speechSeconds} s of speech; a speaker needs at least ${MIN_ENROLL_SPEECH_SECONDS} s to be recognized.`,
    );
  }
  const embedding = speakerEmbedding(speech, model, threads);
  if (!embedding) throw new UserFacingError('The clip is too short for the speaker embedding model.');
  return { backend: 'sherpa-onnx', result: { embedding, model: path.basename(model), speechSeconds } };
}
