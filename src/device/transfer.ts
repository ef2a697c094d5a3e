import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream/promises';
import { DEVICE_LINK_PATH } from '../link/protocol';

/** The relay's origin from what the user typed: `https://relay.example`, with or without `/v1`. */
export function relayOrigin(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`Expected the relay's URL such as https://relay.example.com, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`Expected an http(s) relay URL, got ${JSON.stringify(url)}`);
  parsed.pathname = parsed.pathname.replace(/\/+$/, '').replace(/\/v1$/, '') || '/';
  parsed.search = '';
  parsed.hash = '';
  return parsed;
}

const join = (origin: URL, path: string): URL => new URL(`${origin.pathname.replace(/\/$/, '')}${path}`, origin);

export function linkUrl(origin: URL): string {
  const url = join(origin, DEVICE_LINK_PATH);
  url.protocol = origin.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

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
export async function downloadInput(origin: URL, path: string, token: string, file: string, signal?: AbortSignal): Promise<number> {
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = send(join(origin, path), { method: 'GET', headers: { Authorization: `Bearer ${token}` }, signal });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
  if (res.statusCode !== 200) throw await failure(res, 'Fetching the job\'s input from the relay');
  try {
    await pipeline(res, createWriteStream(file, { flags: 'wx' }));
  } catch (error) {
    await fs.rm(file, { force: true });
    throw error;
  }
  return (await fs.stat(file)).size;
}

/** Streams `file` to the relay as the job's output. */
export async function uploadOutput(origin: URL, path: string, token: string, file: string, contentType: string): Promise<void> {
  const { size } = await fs.stat(file);
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = send(join(origin, path), {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType, 'Content-Length': String(size) },
    });
    req.on('response', resolve);
    req.on('error', reject);
    pipeline(createReadStream(file), req).catch(reject);
  });
  if (res.statusCode !== 204) throw await failure(res, 'Sending the job\'s output to the relay');
  res.resume();
}
