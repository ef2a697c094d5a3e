/**
 * The one multipart/form-data receiver of the Local API and the relay: the media part streams into a
 * pluggable sink (a job folder, the relay's blob store), never into memory; the other parts are text fields.
 */
import Busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { ApiError, invalidRequest } from '../../contract/errors';
import { storedInputName } from '../../contract/media-types';
import type { UploadSink } from './upload-sink';

export const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

/** Multipart framing around the file: a declared body this much over the file limit cannot fit. */
export const FRAMING_ALLOWANCE = 64 * 1024;

export interface ReceivedFile {
  /** The name the sink stored it under (`input.wav`, `input.media`): never the client's. */
  storedName: string;
  /** The client's file name, without folders, for display. */
  originalName: string;
  bytes: number;
}

export interface ReceivedUpload {
  /** The text fields; a repeated field keeps its last value here and every value in `entries`. */
  fields: Record<string, string>;
  /** The text fields in the order they came, repeats included (`timestamp_granularities[]`). */
  entries: Array<[name: string, value: string]>;
  file: ReceivedFile | undefined;
  /** Small file parts other than `file` that the caller asked for (an alignment's script), read into memory. */
  smallFiles: Record<string, SmallFile>;
}

/**
 * The media part of a received upload, refused the same way on every door that takes one (the Local API's STT
 * and alignment, the OpenAI door, the relay): INVALID_REQUEST when it is missing or empty.
 */
export function requireMediaFile<T extends ReceivedFile>(file: T | undefined): T {
  if (!file) throw invalidRequest('file: is required (a part named "file" holding the media)');
  if (file.bytes === 0) throw invalidRequest('file: is empty');
  return file;
}

/** A small file part, kept in memory. */
export interface SmallFile {
  originalName: string;
  content: Buffer;
}

const MB = 1024 * 1024;

/**
 * A text field's limit is counted in characters by the request's schema (`prompt`: 1024); the parser counts
 * bytes, so it stops only at what 1024 characters can take in UTF-8 (4 bytes each) and the schema judges.
 */
const MAX_FIELD_CHARACTERS = 1024;
const MAX_FIELD_BYTES = 4 * MAX_FIELD_CHARACTERS;

/** How many text fields a body may hold beside its file, and how long each may be (in bytes). */
export interface FieldLimits {
  fields: number;
  fieldSize: number;
}

/** Short text fields: every route's, except where a field carries audio (OpenAI's reference clips). */
export const TEXT_FIELDS: FieldLimits = { fields: 16, fieldSize: MAX_FIELD_BYTES };

export const tooLarge = (maxBytes = MAX_UPLOAD_BYTES): ApiError =>
  new ApiError(
    'FILE_TOO_LARGE',
    `file: must be at most ${maxBytes % MB === 0 ? `${maxBytes / MB} MB (${maxBytes} bytes)` : `${maxBytes} bytes`}.`,
  );

/** The parser (or its file part) found the body cut short or malformed. */
const incomplete = (error: Error): ApiError =>
  invalidRequest(`body: is not a complete multipart/form-data body (${error.message})`);

const partName = (name: string | undefined): string => (name ? name.slice(0, 100) : 'a part without a name');

/**
 * Streams a multipart/form-data body: the part named `file` into `sink`, the others as text fields. Stops
 * at `maxBytes` with FILE_TOO_LARGE, answers any malformed body with INVALID_REQUEST, and on any failure
 * removes what the sink had stored.
 */
export async function receiveUpload(
  req: IncomingMessage,
  sink: UploadSink,
  maxBytes = MAX_UPLOAD_BYTES,
  fieldLimits: FieldLimits = TEXT_FIELDS,
  /** Other file parts accepted, by name, with the most bytes each may have; they are read into memory. */
  smallFileLimits: Readonly<Record<string, number>> = {},
): Promise<ReceivedUpload> {
  const fields: Record<string, string> = {};
  const smallFiles: Record<string, SmallFile> = {};
  const smallFileNames = Object.keys(smallFileLimits);
  const entries: ReceivedUpload['entries'] = [];
  let file: ReceivedFile | undefined;
  let written: Promise<void> | undefined;

  try {
    await new Promise<void>((resolve, reject) => {
      let parser: Busboy.Busboy;
      try {
        parser = Busboy({
          headers: req.headers,
          limits: {
            fileSize: maxBytes,
            files: 1 + smallFileNames.length,
            fields: fieldLimits.fields,
            fieldSize: fieldLimits.fieldSize,
            parts: fieldLimits.fields + 1 + smallFileNames.length,
            fieldNameSize: 100,
          },
        });
      } catch (error) {
        reject(invalidRequest(`body: must be multipart/form-data with a boundary (${(error as Error).message})`));
        return;
      }
      const openStreams: Readable[] = [];
      let failed = false;
      const fail = (error: unknown): void => {
        if (failed) return;
        failed = true;
        req.unpipe(parser);
        req.resume();
        // The parser no longer sees the body, so an open file part would never end: end it here, and the
        // sink's side too: a part that had ended but not yet said so would leave the sink waiting forever.
        // Destroyed with the error: a stream destroyed without one after its writable side finished (the file
        // part had ended, a later part was cut short) leaves the sink's pipeline pending for ever.
        const cause = error instanceof Error ? error : new Error(String(error));
        for (const stream of openStreams) stream.destroy(cause);
        reject(error);
      };
      // A part without a name (or with name="") comes with name undefined: never assume a string.
      parser.on('file', (name: string | undefined, stream, info) => {
        // Parts the parser still finds in what it had already read after a failure are drained, never stored.
        if (failed) {
          stream.resume();
          return;
        }
        if (name !== undefined && name !== 'file' && Object.hasOwn(smallFileLimits, name) && !(name in smallFiles)) {
          const limit = smallFileLimits[name];
          const chunks: Buffer[] = [];
          let bytes = 0;
          const small: SmallFile = {
            originalName: path.basename(info.filename ?? '').slice(0, 200),
            content: Buffer.alloc(0),
          };
          smallFiles[name] = small;
          openStreams.push(stream);
          stream.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (bytes > limit)
              fail(
                new ApiError(
                  'FILE_TOO_LARGE',
                  `${name}: must be at most ${limit % MB === 0 ? `${limit / MB} MB` : `${limit} bytes`}.`,
                ),
              );
            else chunks.push(chunk);
          });
          stream.on('end', () => (small.content = Buffer.concat(chunks)));
          stream.on('error', (error: Error) => fail(incomplete(error)));
          return;
        }
        if (name !== 'file') {
          stream.resume();
          fail(
            invalidRequest(
              `${partName(name)}: is not a known file field; send the media as "file"${smallFileNames.map((other) => ` and the ${other} as "${other}"`).join('')}`,
            ),
          );
          return;
        }
        if (file) {
          // A second `file` part (the small-file fields leave room for more than one part): one upload per request.
          stream.resume();
          fail(invalidRequest('file: send exactly one file'));
          return;
        }
        const received = {
          storedName: storedInputName(info.filename ?? ''),
          originalName: path.basename(info.filename ?? '').slice(0, 200) || 'upload',
          bytes: 0,
        };
        file = received;
        // Counted on the way to the sink, which may take a moment before it starts reading (a folder to make).
        const counted = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            received.bytes += chunk.length;
            callback(null, chunk);
          },
        });
        openStreams.push(stream, counted);
        stream.on('limit', () => fail(tooLarge(maxBytes)));
        stream.on('error', (error: Error) => fail(incomplete(error)));
        stream.pipe(counted);
        written = sink.write(received.storedName, counted);
        written.catch(fail);
      });
      parser.on('field', (name: string | undefined, value, info) => {
        if (failed) return;
        if (!name) fail(invalidRequest('body: a form field has no name'));
        // Without a filename in its Content-Disposition, a part is a text field, however long its content.
        else if (Object.hasOwn(smallFileLimits, name))
          fail(invalidRequest(`${name}: must be sent as a file, with a filename`));
        else if (name === 'file')
          fail(
            invalidRequest(
              'file: must be sent as a file, with a filename (Content-Disposition: form-data; name="file"; filename="talk.wav")',
            ),
          );
        else if (info.valueTruncated)
          fail(
            invalidRequest(
              `${partName(name)}: is too long; a form field takes at most ${MAX_FIELD_CHARACTERS} characters`,
            ),
          );
        else {
          fields[name] = value;
          entries.push([name, value]);
        }
      });
      parser.on('filesLimit', () => fail(invalidRequest('file: send exactly one file')));
      parser.on('fieldsLimit', () => fail(invalidRequest('body: has too many fields')));
      parser.on('partsLimit', () => fail(invalidRequest('body: has too many parts')));
      parser.on('error', (error: Error) => fail(incomplete(error)));
      parser.on('close', () => resolve());
      req.on('aborted', () => fail(invalidRequest('body: the upload was aborted by the client')));
      req.on('error', (error) => fail(invalidRequest(`body: the upload failed (${error.message})`)));
      req.pipe(parser);
    });
    await written;
    if (file && file.bytes > maxBytes) throw tooLarge(maxBytes);
    return { fields, entries, file, smallFiles };
  } catch (error) {
    await written?.catch(() => undefined);
    if (file) await sink.remove(file.storedName);
    throw error;
  }
}
