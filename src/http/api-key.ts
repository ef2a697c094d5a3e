import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { promises as fs, statSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic-write';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const API_KEY_FILE = 'api-key';

/** Where the server reads the current key from; the extension keeps it in SecretStorage, the CLI in a file. */
export interface ApiKeySource {
  current(): string | undefined;
}

/** `ssk_local_` followed by 32 random base62 characters (docs/decisions.md). */
export function generateApiKey(): string {
  let secret = '';
  for (let i = 0; i < 32; i++) secret += BASE62[randomInt(BASE62.length)];
  return `ssk_local_${secret}`;
}

/** Compares in constant time whatever the lengths: both sides are hashed to the same size first. */
export function keysMatch(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export const apiKeyPath = (dataDir: string): string => path.join(dataDir, API_KEY_FILE);

/** Writes a new key readable only by its owner, atomically, so a reader never sees half a key. */
export async function writeApiKey(dataDir: string, key = generateApiKey()): Promise<string> {
  await fs.mkdir(dataDir, { recursive: true });
  const target = apiKeyPath(dataDir);
  await writeFileAtomic(target, `${key}\n`, { mode: 0o600 });
  return key;
}

/** Returns the key in `<data-dir>/api-key`, creating it on first use. */
export async function ensureApiKey(dataDir: string): Promise<string> {
  try {
    const existing = (await fs.readFile(apiKeyPath(dataDir), 'utf8')).trim();
    if (existing) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return writeApiKey(dataDir);
}

/**
 * Reads the key file, and reads it again whenever it was replaced: a `stat` per request costs microseconds
 * and means a regenerated key takes effect on the very next request, which a file watcher cannot promise.
 */
export class FileApiKeySource implements ApiKeySource {
  private cached: { key: string | undefined; ino: number; mtimeMs: number; size: number } | undefined;

  constructor(private readonly file: string) {}

  current(): string | undefined {
    let stat;
    try {
      stat = statSync(this.file);
    } catch {
      this.cached = undefined;
      return undefined;
    }
    const c = this.cached;
    if (!c || c.ino !== stat.ino || c.mtimeMs !== stat.mtimeMs || c.size !== stat.size) {
      const key = readFileSync(this.file, 'utf8').trim() || undefined;
      this.cached = { key, ino: stat.ino, mtimeMs: stat.mtimeMs, size: stat.size };
    }
    return this.cached?.key;
  }
}
