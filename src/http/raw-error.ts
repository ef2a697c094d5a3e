/** Error answers written below Koa, in the spec's JSON error body: on a bare socket or a bare ServerResponse. */
import type { ServerResponse } from 'node:http';
import type { ApiError, ErrorCode } from '../contract/errors';

const errorJson = (code: ErrorCode, message: string): string => JSON.stringify({ error: { code, message } });

/** A whole HTTP response for a socket Node gave up on before a request existed (bad framing, huge headers, CONNECT). */
export function rawErrorResponse(
  status: number,
  reason: string,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
): string {
  return rawResponse(status, reason, errorJson(code, message), headers);
}

/** The same, for a registry error: its whole body, with the members beside code and message (e.g. `feature`). */
export function rawApiErrorResponse(error: ApiError, reason: string): string {
  return rawResponse(error.status, reason, JSON.stringify(error.toBody()), error.headers);
}

function rawResponse(status: number, reason: string, body: string, headers: Record<string, string>): string {
  return (
    `HTTP/1.1 ${status} ${reason}\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/** Answers a request the app never sees (an unmet Expect, no Host), then closes the connection. */
export function writeErrorResponse(res: ServerResponse, status: number, code: ErrorCode, message: string): void {
  const body = errorJson(code, message);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  res.end(body);
}
