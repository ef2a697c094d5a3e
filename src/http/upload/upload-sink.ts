/** Where the upload receiver puts the file part of a multipart body: the one interface every store implements. */
import type { Readable } from 'node:stream';

/**
 * A place for one upload's file. The receiver picks the name (never the client's), streams the part into
 * `write`, and calls `remove` when the upload fails or is refused, complete or not.
 */
export interface UploadSink {
  /** Streams `source` into storage under `name` until it ends; rejects when storing fails or `source` is destroyed. */
  write(name: string, source: Readable): Promise<void>;
  /** Removes what `write` stored under `name`, whole or partial; nothing there is not an error. */
  remove(name: string): Promise<void>;
}
