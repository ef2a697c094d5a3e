import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobTooLargeError, type BlobStore } from './blob-store';

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

/** Blobs as files under one folder; a write lands under a temporary name and is renamed into place. */
export class FolderBlobStore implements BlobStore {
  constructor(readonly root: string) {}

  private file(key: string): string {
    if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
      throw new TypeError(`Expected a blob key such as jobs/<id>/input.wav, got ${JSON.stringify(key)}`);
    }
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, source: Readable, options: { maxBytes?: number } = {}): Promise<number> {
    const target = this.file(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${randomUUID()}.partial`;
    const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        callback(bytes > maxBytes ? new BlobTooLargeError(maxBytes) : null, chunk);
      },
    });
    try {
      await pipeline(source, counter, createWriteStream(temporary, { flags: 'wx' }));
      await fs.rename(temporary, target);
      return bytes;
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
