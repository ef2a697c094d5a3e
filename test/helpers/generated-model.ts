/**
 * Generated random-weight models for tests, written once into a cache outside the project, under a folder
 * named by their content: the same bytes always land at the same path, and nothing is committed.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** The path of `bytes` cached as `<tmp>/speech-studio-test-models/<kind>-<digest>/<name>`. */
export async function cachedModelFile(kind: string, name: string, bytes: Uint8Array): Promise<string> {
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), 'speech-studio-test-models', `${kind}-${digest}`);
  const file = path.join(dir, name);
  if (existsSync(file)) return file;
  await mkdir(dir, { recursive: true });
  // Written beside and renamed, so a test file running in parallel never sees half a model.
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, bytes);
  await rename(partial, file);
  return file;
}
