/**
 * Enrolling, removing and listing known speakers (src/voices/known-speakers.ts): the clip's voice is
 * computed in an engine process; the name is checked, and refused when taken, before any engine work.
 */
import { requireRegularFile } from '../local-files/user-files';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { ApiError } from '../contract/errors';
import { modelsDir } from '../models/model-paths';
import {
  normalizeSpeakerName,
  readKnownSpeakers,
  speakerNameProblem,
  updateKnownSpeakers,
  type KnownSpeaker,
} from '../voices/known-speakers';
import type { EngineHost } from './engine-host';

/** A name the enrollment refuses, in one sentence for the user: a registry INVALID_REQUEST. */
export class EnrollmentError extends ApiError {
  constructor(message: string) {
    super('INVALID_REQUEST', message);
    this.name = 'EnrollmentError';
  }
}

/** `ranges`: only these stretches of `clip` (seconds), e.g. one speaker's segments of a transcript of it. */
export async function enrollSpeaker(
  engine: EngineHost,
  dataDir: string,
  given: string,
  clip: string,
  signal: AbortSignal,
  ranges?: Array<{ start: number; end: number }>,
): Promise<KnownSpeaker> {
  const name = normalizeSpeakerName(given);
  const problem = speakerNameProblem(name);
  if (problem) throw new EnrollmentError(`${JSON.stringify(name)}: ${problem}.`);
  if ((await readKnownSpeakers(dataDir)).some((speaker) => normalizeSpeakerName(speaker.name) === name)) {
    throw new EnrollmentError(
      `A speaker named ${JSON.stringify(name)} is already enrolled: remove it first, or choose another name.`,
    );
  }
  await requireRegularFile(clip, 'recording');
  const outcome = await engine.run(
    `enroll-${randomUUID()}`,
    {
      kind: 'speaker-embedding',
      inputPath: path.resolve(clip),
      modelsDir: modelsDir(dataDir),
      ...(ranges ? { ranges } : {}),
    },
    { signal, onProgress: () => undefined },
  );
  const speaker: KnownSpeaker = { name, ...outcome.result, addedAt: new Date().toISOString() };
  // Checked again under the lock: another enrollment (another process too) may have finished meanwhile.
  return updateKnownSpeakers(dataDir, (current) => {
    if (current.some((known) => normalizeSpeakerName(known.name) === name))
      throw new EnrollmentError(`A speaker named ${JSON.stringify(name)} was enrolled meanwhile.`);
    return { speakers: [...current, speaker], value: speaker };
  });
}

/** Whether a speaker of that name was enrolled (and is now gone). */
export async function removeSpeaker(dataDir: string, given: string): Promise<boolean> {
  const name = normalizeSpeakerName(given);
  return updateKnownSpeakers(dataDir, (current) => {
    const kept = current.filter((speaker) => normalizeSpeakerName(speaker.name) !== name);
    return { speakers: kept, value: kept.length !== current.length };
  });
}

/** The enrolled speakers without their embeddings (what GET /v1/speakers and `speakers list` show). */
export async function listSpeakers(dataDir: string): Promise<Array<Omit<KnownSpeaker, 'embedding'>>> {
  return (await readKnownSpeakers(dataDir)).map(({ embedding: _embedding, ...rest }) => rest);
}
