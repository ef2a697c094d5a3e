import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { byteCounter, checkBlobKey, type BlobStore } from './blob-store';

/** Blobs as files under one folder; a write lands under a temporary name and is renamed into place. */
export class FolderBlobStore implements BlobStore {
  constructor(readonly root: string) {}

  private file(key: string): string {
    return path.join(this.root, ...checkBlobKey(key).split('/'));
  }

  async put(key: string, source: Readable, options: { maxBytes?: number } = {}): Promise<number> {
    const target = this.file(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${randomUUID()}.partial`;
    const counter = byteCounter(options.maxBytes);
    try {
      await pipeline(source, counter.stream, createWriteStream(temporary, { flags: 'wx' }));
      await fs.rename(temporary, target);
      return counter.bytes();
    } catch (error) {
      await fs.rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<{ stream: Readable; bytes: number } | undefined> {
    const file = this.file(key);
    const handle = await fs.open(file, 'r').catch(() => undefined);
    if (!handle) return undefined;
    const { size } = await handle.stat();
    return { stream: createReadStream(file, { fd: handle }), bytes: size };
  }

  async delete(key: string): Promise<void> {
    const file = this.file(key);
    await fs.rm(file, { force: true });
    await fs.rmdir(path.dirname(file)).catch(() => undefined); // the job's folder, once empty
  }
}
