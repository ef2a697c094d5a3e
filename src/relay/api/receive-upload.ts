import Busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { invalidRequest } from '../../contract/errors';
import { BlobTooLargeError, jobBlobKey, type BlobStore } from '../storage/blob-store';

const MEDIA_EXTENSIONS = new Set(['.wav', '.mp3', '.flac', '.ogg', '.oga', '.opus', '.aac', '.m4a', '.mp4', '.m4v', '.mov', '.webm', '.mkv']);

export interface UploadedFile {
  key: string;
  originalName: string;
  bytes: number;
}

export interface RelayUpload {
  fields: Record<string, string>;
  file: UploadedFile | undefined;
}

/** The name the upload gets in storage: never the client's, which may hold `../` or worse. */
const storedName = (originalName: string): string => {
  const extension = path.extname(originalName).toLowerCase();
  return `input${MEDIA_EXTENSIONS.has(extension) ? extension : '.media'}`;
};

/**
 * Streams a multipart/form-data body: the `file` part straight into the blob store (never into memory),
 * the other parts as text fields. Past `maxBytes` the store refuses with `tooLarge()`; on any failure the
 * partial blob is removed.
 */
export async function receiveUploadToStore(
  req: IncomingMessage,
  blobs: BlobStore,
  jobId: string,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<RelayUpload> {
  const fields: Record<string, string> = {};
  let file: UploadedFile | undefined;
  let stored: Promise<number> | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      let parser: Busboy.Busboy;
      try {
        parser = Busboy({ headers: req.headers, limits: { files: 1, fields: 16, fieldSize: 1024, parts: 17, fieldNameSize: 100 } });
      } catch (error) {
        reject(invalidRequest(`body: must be multipart/form-data with a boundary (${(error as Error).message})`));
        return;
      }
      const open: Readable[] = [];
      const fail = (error: unknown): void => {
        req.unpipe(parser);
        req.resume();
        for (const stream of open) stream.destroy();
        reject(error instanceof BlobTooLargeError ? tooLarge() : error);
      };
      parser.on('file', (name, stream, info) => {
        if (name !== 'file') {
          stream.resume();
          fail(invalidRequest(`${name.slice(0, 100)}: is not a known file field; send the media as "file"`));
          return;
        }
        const originalName = path.basename(info.filename ?? 'upload').slice(0, 200) || 'upload';
        file = { key: jobBlobKey(jobId, storedName(originalName)), originalName, bytes: 0 };
        open.push(stream);
        const target = file;
        stored = blobs.put(target.key, stream, { maxBytes });
        stored.then((bytes) => (target.bytes = bytes), fail);
      });
      parser.on('field', (name, value, info) => {
        if (info.valueTruncated) fail(invalidRequest(`${name.slice(0, 100)}: is too long`));
        else fields[name] = value;
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
    if (stored) await stored;
    return { fields, file };
  } catch (error) {
    await stored?.catch(() => undefined);
    if (file) await blobs.delete(file.key).catch(() => undefined);
    throw error instanceof BlobTooLargeError ? tooLarge() : error;
  }
}
