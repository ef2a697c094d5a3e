import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import { Readable } from 'node:stream';
import type { RawResponse } from './server';

const BOUNDARY = '----speech-studio-test-boundary';

export interface FilePart {
  /** Absolute path of the file to stream, or the bytes themselves. */
  source: string | Buffer;
  filename: string;
  fieldName?: string;
}

function fieldPart(name: string, value: string): Buffer {
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
}

function fileHead(part: FilePart): Buffer {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.fieldName ?? 'file'}"; filename="${part.filename}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
}

/** Streams a multipart/form-data upload (a file of any size, read from disk, never held in memory). */
export async function uploadMultipart(
  url: string,
  fields: Record<string, string>,
  file?: FilePart,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const head = Buffer.concat(Object.entries(fields).map(([k, v]) => fieldPart(k, v)));
  const tail = Buffer.from(`${file ? '\r\n' : ''}--${BOUNDARY}--\r\n`);
  const fileBytes = file ? (typeof file.source === 'string' ? (await stat(file.source)).size : file.source.length) : 0;
  const fileHeadBytes = file ? fileHead(file) : Buffer.alloc(0);
  const length = head.length + fileHeadBytes.length + fileBytes + tail.length;

  async function* body() {
    yield head;
    if (file) {
      yield fileHeadBytes;
      if (typeof file.source === 'string') yield* createReadStream(file.source);
      else yield file.source;
    }
    yield tail;
  }

  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
        'Content-Length': String(length),
        ...headers,
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const data = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: data,
          json: () => JSON.parse(data.toString('utf8')),
        });
      });
    });
    // The server may answer (413) and close before the whole body is sent: that is not a test failure, but
    // a connection that closes with no answer at all is, and must not leave the test waiting forever.
    let answered = false;
    req.on('response', () => (answered = true));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    req.on('close', () => {
      if (!answered) reject(new Error('The server closed the connection without answering the upload.'));
    });
    Readable.from(body())
      .on('error', () => undefined)
      .pipe(req);
  });
}
