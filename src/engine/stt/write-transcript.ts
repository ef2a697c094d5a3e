import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Transcript } from '../../subtitles/types';
import { writeFileAtomic } from '../../util/atomic-write';

export const TRANSCRIPT_FILE_NAME = 'transcript.json';

/** Writes `<workDir>/transcript.json` through a temporary file, so a reader never sees half a transcript. */
export async function writeTranscript(workDir: string, transcript: Transcript): Promise<string> {
  await mkdir(workDir, { recursive: true });
  const target = path.join(workDir, TRANSCRIPT_FILE_NAME);
  await writeFileAtomic(target, JSON.stringify(transcript));
  return target;
}
