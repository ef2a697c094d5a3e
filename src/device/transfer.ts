import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { underOrigin } from '../link/relay-address';
import { pipeline } from 'node:stream/promises';

function send(url: URL, options: http.RequestOptions): http.ClientRequest {
  return (url.protocol === 'https:' ? https : http).request(url, options);
}

async function failure(res: http.IncomingMessage, what: string): Promise<Error> {
  let text = '';
  for await (const chunk of res) if (text.length < 2000) text += String(chunk);
  const message = (() => {
    try {
      return (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
    } catch {
      return text;
    }
  })();
  return new Error(`${what} failed with HTTP ${res.statusCode}: ${message.slice(0, 300)}`);
}

/** Streams a job's input from the relay into `file` (never into memory). */
export async function downloadInput(
  origin: URL,
  path: string,
  token: string,
  file: string,
  signal?: AbortSignal,
): Promise<number> {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = send(underOrigin(origin, path), {
      method: 'GET',
      headers: { Authorization: `Bearer ${token}` },
      signal,
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
  if (res.statusCode !== 200) throw await failure(res, "Fetching the job's input from the relay");
  try {
    await pipeline(res, createWriteStream(file, { flags: 'wx' }));
  } catch (error) {
    await fs.rm(file, { force: true });
    throw error;
  }
  return (await fs.stat(file)).size;
}

/** Streams `file` to the relay as the job's output. */
export async function uploadOutput(
  origin: URL,
  path: string,
  token: string,
  file: string,
  contentType: string,
): Promise<void> {
  const { size } = await fs.stat(file);
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = send(underOrigin(origin, path), {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType, 'Content-Length': String(size) },
    });
    req.on('response', resolve);
    req.on('error', reject);
    pipeline(createReadStream(file), req).catch(reject);
  });
  if (res.statusCode !== 204) throw await failure(res, "Sending the job's output to the relay");
  res.resume();
}
