/**
 * Speakers remembered across files: a name and a voice embedding (sherpa-onnx speaker embeddings) each, in
 * `<data-dir>/known-speakers.json`. Enrolled from the CLI; read by the engine, which names a diarized
 * speaker whose voice matches one (cosine similarity at or above SPEAKER_MATCH_THRESHOLD), and listed by
 * GET /v1/speakers without the embeddings.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rmdir, stat, writeFile } from 'node:fs/promises';
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
  if (name.trim() !== name || name.length === 0 || name.length > 64)
    return "a speaker's name has 1 to 64 characters, without spaces at either end";
  // eslint-disable-next-line no-control-regex -- refuses the control characters by name
  if (/[\u0000-\u001f<>[\]]/.test(name)) return "a speaker's name cannot hold control characters, brackets or < >";
  if (/^Speaker \d+$/i.test(name) || /^[A-Z]$/.test(name)) return `"${name}" is how unnamed speakers are labelled`;
  return undefined;
}

/** A speaker's name as stored and compared: NFC, so "José" typed either way is one speaker. */
export const normalizeSpeakerName = (name: string): string => name.normalize('NFC');

/**
 * The enrolled speakers. A file that is not the JSON this module writes (cut short, edited by hand) is set
 * aside as `known-speakers.damaged-<time>.json` and read as none: listing and enrolling keep working, and the
 * damaged file stays for the user to mend.
 */
export async function readKnownSpeakers(dataDir: string): Promise<KnownSpeaker[]> {
  const file = knownSpeakersPath(dataDir);
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return [];
  const speakers = parseSpeakers(text);
  if (speakers === undefined) {
    const aside = path.join(
      dataDir,
      `known-speakers.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.json`,
    );
    await rename(file, aside).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error; // another reader set it aside first
    });
    return [];
  }
  return speakers;
}

function parseSpeakers(text: string): KnownSpeaker[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as { speakers?: unknown }).speakers))
    return undefined;
  return (parsed as { speakers: unknown[] }).speakers.filter(
    (speaker): speaker is KnownSpeaker =>
      typeof speaker === 'object' &&
      speaker !== null &&
      typeof (speaker as KnownSpeaker).name === 'string' &&
      Array.isArray((speaker as KnownSpeaker).embedding),
  );
}

export async function writeKnownSpeakers(dataDir: string, speakers: readonly KnownSpeaker[]): Promise<void> {
  const file = knownSpeakersPath(dataDir);
  const temporary = `${file}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ version: 1, speakers }, null, 2)}\n`);
  await rename(temporary, file);
}

/** A lock left by a process that died while it held it is taken over after this long. */
const STALE_LOCK_MS = 30_000;
const LOCK_WAIT_MS = 60_000;

/**
 * Reads, changes and writes the enrolled speakers as one step across processes: ten `speakers add` at once
 * (each its own process) all land, where read-then-write lost some. The lock is a folder, made atomically.
 * `change` returns the new list, or throws to leave the file as it was.
 */
export async function updateKnownSpeakers<T>(
  dataDir: string,
  change: (
    current: KnownSpeaker[],
  ) => { speakers: KnownSpeaker[]; value: T } | Promise<{ speakers: KnownSpeaker[]; value: T }>,
): Promise<T> {
  const lock = `${knownSpeakersPath(dataDir)}.lock`;
  await takeLock(lock);
  try {
    const { speakers, value } = await change(await readKnownSpeakers(dataDir));
    await writeKnownSpeakers(dataDir, speakers);
    return value;
  } finally {
    await rmdir(lock).catch(() => undefined);
  }
}

async function takeLock(lock: string): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await mkdir(lock);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const since = await stat(lock).then(
      (info) => info.mtimeMs,
      () => undefined,
    );
    if (since !== undefined && Date.now() - since > STALE_LOCK_MS) {
      await rmdir(lock).catch(() => undefined);
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(
        `${lock} has been held for over ${LOCK_WAIT_MS / 1000} s; remove it if no speakers command is running.`,
      );
    await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
  }
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
export function bestMatch(
  embedding: readonly number[],
  known: ReadonlyArray<Pick<KnownSpeaker, 'name' | 'embedding'>>,
  threshold = SPEAKER_MATCH_THRESHOLD,
): string | undefined {
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
