import type { Readable } from 'node:stream';

/**
 * Where the relay keeps uploads and outputs. Keys are relative paths such as `jobs/<id>/input.wav`.
 * A folder implements it today (folder-store.ts); an S3-compatible store can implement the same four
 * calls (PutObject from a stream, GetObject as a stream, HeadObject, DeleteObject). Every instance of a
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

export const jobBlobKey = (jobId: string, name: string): string => `jobs/${jobId}/${name}`;
