import { Transform, type Readable } from 'node:stream';

/**
 * Where the relay keeps uploads and outputs. Keys are relative paths such as `jobs/<id>/input.wav`.
 * A folder (folder-store.ts) or an S3-compatible bucket (s3-store.ts) implements it. Every instance of a
 * relay must see the same store: a shared folder or bucket.
 */
export interface BlobStore {
  /** Streams `source` into `key`, never holding it in memory; throws BlobTooLargeError past `maxBytes`. */
  put(key: string, source: Readable, options?: { maxBytes?: number }): Promise<number>;
  /** The blob as a stream with its size, or undefined when there is none. */
  get(key: string): Promise<{ stream: Readable; bytes: number } | undefined>;
  delete(key: string): Promise<void>;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The stream is larger than ${maxBytes} bytes.`);
    this.name = 'BlobTooLargeError';
  }
}

/** A pass-through that counts the bytes flowing into a store and fails with BlobTooLargeError past `maxBytes`. */
export function byteCounter(maxBytes = Number.POSITIVE_INFINITY): { stream: Transform; bytes(): number } {
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(bytes > maxBytes ? new BlobTooLargeError(maxBytes) : null, chunk);
    },
  });
  return { stream, bytes: () => bytes };
}

/** Raised by a store that cannot reach its backing service (an S3 endpoint down, a refused request). */
export class BlobStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BlobStoreError';
  }
}

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

/** Refuses keys that could escape a folder or a key prefix (`..`, absolute paths, odd characters). */
export function checkBlobKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new TypeError(`Expected a blob key such as jobs/<id>/input.wav, got ${JSON.stringify(key)}`);
  }
  return key;
}

export const jobBlobKey = (jobId: string, name: string): string => `jobs/${jobId}/${name}`;
