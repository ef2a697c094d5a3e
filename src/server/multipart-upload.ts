import Busboy from 'busboy';
import { createWriteStream, promises as fs } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError, invalidRequest } from '../contract/errors';

export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;
const MEDIA_EXTENSIONS = new Set(['.wav', '.mp3', '.flac', '.ogg', '.oga', '.opus', '.aac', '.m4a', '.mp4', '.m4v', '.mov', '.webm', '.mkv']);

export interface ReceivedUpload {
  /** The text fields; a repeated field keeps its last value here and all of them in `entries`. */
  fields: Record<string, string>;
  entries: Array<[name: string, value: string]>;
  file: { path: string; fileName: string; originalName: string; bytes: number } | undefined;
}

export const tooLarge = (): ApiError =>
  new ApiError('FILE_TOO_LARGE', `file: must be at most 512 MB (${MAX_UPLOAD_BYTES} bytes).`);

const partName = (name: string | undefined): string => (name ? name.slice(0, 100) : 'a part without a name');

/** The name the upload gets on disk: never the client's name, which may hold `../` or worse. */
function storedName(originalName: string): string {
  const extension = path.extname(originalName).toLowerCase();
  return `input${MEDIA_EXTENSIONS.has(extension) ? extension : '.media'}`;
}

/**
 * Streams a multipart/form-data body: the `file` part straight to `dir` (never into memory), the other
 * parts as text fields. Stops at `maxBytes` with FILE_TOO_LARGE; on any failure the partial file is removed.
 */
export async function receiveUpload(req: IncomingMessage, dir: string, maxBytes = MAX_UPLOAD_BYTES): Promise<ReceivedUpload> {
  const fields: Record<string, string> = {};
  const entries: Array<[string, string]> = [];
  let file: ReceivedUpload['file'];
  const writes: Promise<void>[] = [];

  try {
    await new Promise<void>((resolve, reject) => {
      let parser: Busboy.Busboy;
      try {
        parser = Busboy({
          headers: req.headers,
          limits: { fileSize: maxBytes, files: 1, fields: 16, fieldSize: 1024, parts: 17, fieldNameSize: 100 },
        });
      } catch (error) {
        reject(invalidRequest(`body: must be multipart/form-data with a boundary (${(error as Error).message})`));
        return;
      }
      const openStreams: Array<Readable | Writable> = [];
      let failed = false;
      const fail = (error: unknown): void => {
        if (failed) return;
        failed = true;
        req.unpipe(parser);
        req.resume();
        // The parser no longer sees the body, so an open file part would never end: end it here, and its
        // file too: a part that had ended but not yet said so would leave the pipeline waiting forever.
        for (const stream of openStreams) stream.destroy();
        reject(error);
      };
      // A part without a name (or with name="") comes with name undefined: never assume a string.
      parser.on('file', (name: string | undefined, stream, info) => {
        // Parts the parser still finds in what it had already read after a failure are drained, never stored.
        if (failed) {
          stream.resume();
          return;
        }
        if (name !== 'file') {
          stream.resume();
          fail(invalidRequest(`${partName(name)}: is not a known file field; send the media as "file"`));
          return;
        }
        const fileName = storedName(info.filename ?? '');
        const target = path.join(dir, fileName);
        const received = { path: target, fileName, originalName: path.basename(info.filename ?? 'upload').slice(0, 200), bytes: 0 };
        file = received;
        const sink = createWriteStream(target, { flags: 'wx' });
        openStreams.push(stream, sink);
        stream.on('data', (chunk: Buffer) => (received.bytes += chunk.length));
        stream.on('limit', () => fail(tooLarge()));
        const written = pipeline(stream, sink);
        written.catch(fail);
        writes.push(written);
      });
      parser.on('field', (name: string | undefined, value, info) => {
        if (failed) return;
        if (!name) fail(invalidRequest('body: a form field has no name'));
        else if (info.valueTruncated) fail(invalidRequest(`${partName(name)}: is too long`));
        else {
          fields[name] = value;
          entries.push([name, value]);
        }
      });
      parser.on('filesLimit', () => fail(invalidRequest('file: send exactly one file')));
      parser.on('fieldsLimit', () => fail(invalidRequest('body: has too many fields')));
      parser.on('partsLimit', () => fail(invalidRequest('body: has too many parts')));
      parser.on('error', (error: Error) => fail(invalidRequest(`body: is not a complete multipart/form-data body (${error.message})`)));
      parser.on('close', () => resolve());
      req.on('aborted', () => fail(invalidRequest('body: the upload was aborted by the client')));
      req.on('error', (error) => fail(invalidRequest(`body: the upload failed (${error.message})`)));
      req.pipe(parser);
    });
    await Promise.all(writes);
    if (file && file.bytes > maxBytes) throw tooLarge();
    return { fields, entries, file };
  } catch (error) {
    await Promise.allSettled(writes);
    if (file) await fs.rm(file.path, { force: true });
    throw error;
  }
}
