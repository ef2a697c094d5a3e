/**
 * Puts names on diarized speakers: each speaker's voice (an embedding of up to 30 s of their segments) is
 * compared with the job's own reference clips and the enrolled speakers of the data directory; a speaker
 * whose voice matches one (see SPEAKER_MATCH_THRESHOLD) takes that name, the others keep "Speaker N".
 * A name goes to one speaker at most: the closest.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { cosineSimilarity, readKnownSpeakers, SPEAKER_MATCH_THRESHOLD } from '../../voices/known-speakers';
import { SPEECH_SAMPLE_RATE } from '../media/decode-pcm16';
import { mediaToolchain } from '../media/media-toolchain';
import {
  REFERENCE_SPEAKERS_FILE,
  UserFacingError,
  type ReferenceSpeakers,
  type SttTask,
} from '../../engine-api/protocol';
import type { SpeakerAssignment } from './assign-speakers';
import { decodeInput } from './decode-input';
import { modelsDirOf } from '../../models/model-files';
import { speakerEmbedding } from './speaker-embedding';

const VOICE_SECONDS = 30;

interface Voice {
  name: string;
  embedding: number[];
}

/** The job's reference voices first (they win over an enrolled voice of the same name), then the enrolled ones. */
export async function referenceVoices(task: SttTask, embeddingModel: string, threads: number): Promise<Voice[]> {
  const voices: Voice[] = [];
  const listed = await readFile(path.join(task.workDir, REFERENCE_SPEAKERS_FILE), 'utf8').catch(() => undefined);
  if (listed !== undefined) {
    const { speakers } = JSON.parse(listed) as ReferenceSpeakers;
    for (const { name, file } of speakers) {
      const clip = await decodeInput(
        path.join(task.workDir, path.basename(file)),
        {},
        mediaToolchain(),
        () => undefined,
      ).catch((error: unknown) => {
        throw new UserFacingError(
          `The reference clip of ${JSON.stringify(name)} could not be decoded: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
      const embedding = speakerEmbedding(clip.pcm, embeddingModel, threads);
      if (embedding) voices.push({ name, embedding });
    }
  }
  const model = path.basename(embeddingModel);
  const enrolled = await readKnownSpeakers(path.dirname(modelsDirOf(task.modelPath))).catch(() => []);
  for (const speaker of enrolled) {
    if (speaker.model === model && !voices.some((voice) => voice.name === speaker.name)) voices.push(speaker);
  }
  return voices;
}

/** The assignment with matched speakers renamed (segments, words and the speaker list). */
export function nameSpeakers(
  assignment: SpeakerAssignment,
  pcm: Int16Array,
  offsetSeconds: number,
  voices: readonly Voice[],
  embeddingModel: string,
  threads: number,
): SpeakerAssignment {
  if (voices.length === 0) return assignment;
  const candidates: Array<{ label: string; name: string; score: number }> = [];
  for (const label of assignment.speakers) {
    const embedding = speakerEmbedding(voiceOf(assignment, label, pcm, offsetSeconds), embeddingModel, threads);
    if (!embedding) continue;
    for (const voice of voices) {
      const score = cosineSimilarity(embedding, voice.embedding);
      if (score >= SPEAKER_MATCH_THRESHOLD) candidates.push({ label, name: voice.name, score });
    }
  }
  const names = new Map<string, string>();
  for (const { label, name } of candidates.sort((a, b) => b.score - a.score)) {
    if (!names.has(label) && ![...names.values()].includes(name)) names.set(label, name);
  }
  if (names.size === 0) return assignment;
  const rename = (label: string | undefined): string | undefined =>
    label === undefined ? undefined : (names.get(label) ?? label);
  return {
    speakers: assignment.speakers.map((label) => rename(label) as string),
    segments: assignment.segments.map((segment) => ({
      ...segment,
      ...(segment.speaker === undefined ? {} : { speaker: rename(segment.speaker) }),
      words: segment.words.map((word) =>
        word.speaker === undefined ? word : { ...word, speaker: rename(word.speaker) },
      ),
    })),
  };
}

/** Up to VOICE_SECONDS of the speaker's segments, back to back. */
function voiceOf(assignment: SpeakerAssignment, label: string, pcm: Int16Array, offsetSeconds: number): Int16Array {
  const pieces: Int16Array[] = [];
  let total = 0;
  for (const segment of assignment.segments) {
    if (segment.speaker !== label || total >= VOICE_SECONDS * SPEECH_SAMPLE_RATE) continue;
    const from = Math.max(0, Math.round((segment.start - offsetSeconds) * SPEECH_SAMPLE_RATE));
    const to = Math.min(pcm.length, Math.round((segment.end - offsetSeconds) * SPEECH_SAMPLE_RATE));
    if (to > from) {
      pieces.push(pcm.subarray(from, to));
      total += to - from;
    }
  }
  const voice = new Int16Array(total);
  let at = 0;
  for (const piece of pieces) {
    voice.set(piece, at);
    at += piece.length;
  }
  return voice;
}
