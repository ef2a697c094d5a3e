/** The upload sink of the Local API: files in a job's own folder. */
import { createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UploadSink } from './upload-sink';

/** Writes each upload as `<dir>/<name>`, never over an existing file. */
export function folderSink(dir: string): UploadSink {
  return {
    write: (name, source: Readable) => pipeline(source, createWriteStream(path.join(dir, name), { flags: 'wx' })),
    remove: (name) => fs.rm(path.join(dir, name), { force: true }),
  };
}
