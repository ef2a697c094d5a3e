/**
 * The fuzz suite's client: every request has a deadline (a hang is a failure), and every answer is held
 * to the contract: a documented status, and for errors the error body with a code whose status matches.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { ERROR_STATUS, type ErrorCode } from '../../src/contract/errors';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export const DEADLINE_MS = 5000;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** One request, raw path and bytes, answered within `deadlineMs` or rejected. */
export function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
  deadlineMs = DEADLINE_MS,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`No answer within ${deadlineMs} ms: ${method} ${path.slice(0, 200)}`));
    }, deadlineMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(body);
  });
}

export function closeAgent(): void {
  agent.destroy();
}

/** Asserts a documented status and, for errors, the error body whose code belongs to that status. */
export function checkAnswer(answer: Answer, documented: readonly number[], what: string): any {
  const text = answer.body.toString('utf8');
  assert.ok(
    documented.includes(answer.status),
    `${what}: status ${answer.status} is not one of ${documented.join(', ')}: ${text.slice(0, 300)}`,
  );
  if (answer.status < 400)
    return answer.status === 200 && /json/.test(String(answer.headers['content-type'])) ? JSON.parse(text) : text;
  assert.match(String(answer.headers['content-type']), /^application\/json/, `${what}: error without a JSON body`);
  const body = JSON.parse(text);
  const code = body?.error?.code as ErrorCode;
  assert.equal(ERROR_STATUS[code], answer.status, `${what}: code ${code} does not go with status ${answer.status}`);
  assert.equal(typeof body.error.message, 'string');
  assert.ok(body.error.message.length > 0);
  assert.doesNotMatch(body.error.message, /\n\s+at /, `${what}: a stack trace in the message`);
  return body;
}

/** Percent-encodes what cannot travel in a request target, and leaves `/`, `.` and `%` as they are. */
export const rawPathSegment = (value: string): string =>
  Array.from(Buffer.from(value, 'utf8'))
    .map((byte) =>
      /[A-Za-z0-9\-._~%/]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');

export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** A multipart/form-data body built byte for byte: names go in as given, quotes and line breaks included. */
export function multipartBody(parts: readonly Part[], boundary: string, closed = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType !== undefined) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), part.data, Buffer.from('\r\n'));
  }
  if (closed) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
