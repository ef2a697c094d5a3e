/**
 * Speakers remembered across files: a name and a voice embedding (sherpa-onnx speaker embeddings) each, in
 * `<data-dir>/known-speakers.json`. Enrolled from the CLI; read by the engine, which names a diarized
 * speaker whose voice matches one (cosine similarity at or above SPEAKER_MATCH_THRESHOLD), and listed by
 * GET /v1/speakers without the embeddings.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface KnownSpeaker {
  name: string;
  embedding: number[];
  /** The embedding model's file name: embeddings of another model are not comparable. */
  model: string;
  /** Seconds of speech the embedding was computed from. */
  speechSeconds: number;
  addedAt: string;
}

/**
 * The cosine similarity at or above which two voices count as one speaker. 3D-Speaker and WeSpeaker
 * embeddings put one speaker's clips well above 0.6 and different speakers mostly below 0.4; 0.5 sits between.
 */
export const SPEAKER_MATCH_THRESHOLD = 0.5;
/** The least speech an enrollment clip must hold, after silence is removed. */
export const MIN_ENROLL_SPEECH_SECONDS = 2;

export const knownSpeakersPath = (dataDir: string): string => path.join(dataDir, 'known-speakers.json');

/** Why a name cannot be a speaker's, or undefined when it can. */
export function speakerNameProblem(name: string): string | undefined {
  if (name.trim() !== name || name.length === 0 || name.length > 64) return 'a speaker\'s name has 1 to 64 characters, without spaces at either end';
  // eslint-disable-next-line no-control-regex -- refuses the control characters by name
  if (/[\u0000-\u001f<>[\]]/.test(name)) return 'a speaker\'s name cannot hold control characters, brackets or < >';
  if (/^Speaker \d+$/i.test(name) || /^[A-Z]$/.test(name)) return `"${name}" is how unnamed speakers are labelled`;
  return undefined;
}

export async function readKnownSpeakers(dataDir: string): Promise<KnownSpeaker[]> {
  const text = await readFile(knownSpeakersPath(dataDir), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return [];
  const parsed = JSON.parse(text) as { speakers?: unknown };
  if (!Array.isArray(parsed.speakers)) return [];
  return parsed.speakers.filter((speaker): speaker is KnownSpeaker =>
    typeof speaker === 'object' && speaker !== null && typeof (speaker as KnownSpeaker).name === 'string' && Array.isArray((speaker as KnownSpeaker).embedding));
}

export async function writeKnownSpeakers(dataDir: string, speakers: readonly KnownSpeaker[]): Promise<void> {
  const file = knownSpeakersPath(dataDir);
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ version: 1, speakers }, null, 2)}\n`);
  await rename(temporary, file);
}

export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return -1;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i] * b[i];
    normA += a[i] * a[i];
    normB += b[i] * b[i];
  }
  return normA === 0 || normB === 0 ? -1 : dot / Math.sqrt(normA * normB);
}

/** The name of the known voice most like `embedding`, at or above the threshold; undefined when none is. */
export function bestMatch(embedding: readonly number[], known: ReadonlyArray<Pick<KnownSpeaker, 'name' | 'embedding'>>, threshold = SPEAKER_MATCH_THRESHOLD): string | undefined {
  let best: string | undefined;
  let bestScore = threshold;
  for (const speaker of known) {
    const score = cosineSimilarity(embedding, speaker.embedding);
    if (score >= bestScore) {
      best = speaker.name;
      bestScore = score;
    }
  }
  return best;
}
