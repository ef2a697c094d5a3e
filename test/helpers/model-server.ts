/**
 * A download server on 127.0.0.1 for the model tests: each path has a behaviour (serve bytes with Range
 * support, drop the connection mid-file, stall, redirect, fail), and every request is recorded.
 */
import { createHash, randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Fixture {
  bytes: Buffer;
  sha256: string;
}

/** Random bytes; `ggml` starts them with whisper.cpp's magic so the server would see a model. */
export function fixture(size: number, options: { ggml?: boolean } = {}): Fixture {
  const bytes = randomBytes(size);
  if (options.ggml) bytes.write('lmgg', 0, 'latin1');
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}

export interface SeenRequest {
  path: string;
  method: string;
  headers: http.IncomingHttpHeaders;
}

export type Behaviour = (req: IncomingMessage, res: ServerResponse, attempt: number) => void;

export interface FixtureServer {
  base: string;
  port: number;
  requests: SeenRequest[];
  requestsTo(path: string): SeenRequest[];
  route(path: string, behaviour: Behaviour): void;
  close(): Promise<void>;
}

export async function startFixtureServer(routes: Record<string, Behaviour> = {}): Promise<FixtureServer> {
  const table = new Map(Object.entries(routes));
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fixture').pathname;
    requests.push({ path, method: req.method ?? 'GET', headers: req.headers });
    const behaviour = table.get(path);
    if (!behaviour) {
      res.writeHead(404).end('not found');
      return;
    }
    behaviour(req, res, requests.filter((r) => r.path === path).length);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    route: (path, behaviour) => void table.set(path, behaviour),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Serves the bytes, honouring `Range: bytes=N-` with 206 unless `ranges` is false. */
export function serve(bytes: Buffer, options: { ranges?: boolean; etag?: string } = {}): Behaviour {
  return (req, res) => {
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const etag = options.etag ?? '"fixture"';
    if (range && options.ranges !== false) {
      const start = Number(range[1]);
      if (start >= bytes.length) {
        res.writeHead(416, { 'Content-Range': `bytes */${bytes.length}` }).end();
        return;
      }
      res.writeHead(206, {
        'Content-Length': bytes.length - start,
        'Content-Range': `bytes ${start}-${bytes.length - 1}/${bytes.length}`,
        ETag: etag,
      });
      res.end(bytes.subarray(start));
      return;
    }
    res.writeHead(200, {
      'Content-Length': bytes.length,
      'Accept-Ranges': options.ranges === false ? 'none' : 'bytes',
      ETag: etag,
    });
    res.end(bytes);
  };
}

export interface DroppingBehaviour extends Behaviour {
  /** Drops the connections that are holding: call it once the client has the first bytes on disk. */
  drop(): void;
}

/**
 * The first `failures` requests get a full-length answer whose first `cut` bytes are sent; the connection
 * then holds until `drop()` breaks it, so the test decides when (from the client's progress), not a timer.
 */
export function dropMidFile(
  bytes: Buffer,
  cut: number,
  failures = 1,
  options: { ranges?: boolean } = {},
): DroppingBehaviour {
  const whole = serve(bytes, options);
  const holding = new Set<ServerResponse>();
  const behaviour = ((req, res, attempt) => {
    if (attempt > failures) return whole(req, res, attempt);
    res.writeHead(200, { 'Content-Length': bytes.length, ETag: '"fixture"' });
    res.write(bytes.subarray(0, cut));
    holding.add(res);
  }) as DroppingBehaviour;
  behaviour.drop = () => {
    for (const res of holding) res.socket?.destroy();
    holding.clear();
  };
  return behaviour;
}

/** Sends headers and the first `first` bytes, then nothing more: a stalled or very slow server. */
export function stallAfter(bytes: Buffer, first: number): Behaviour {
  return (_req, res) => {
    res.writeHead(200, { 'Content-Length': bytes.length });
    res.write(bytes.subarray(0, first));
  };
}

export interface HeldBehaviour extends Behaviour {
  /** Sends the rest of every held answer. */
  release(): void;
}

/** Sends the first `first` bytes, then holds the rest until `release()`. */
export function holdAfter(bytes: Buffer, first: number): HeldBehaviour {
  const held = new Set<ServerResponse>();
  let released = false;
  const behaviour: HeldBehaviour = Object.assign(
    (_req: IncomingMessage, res: ServerResponse): void => {
      res.writeHead(200, { 'Content-Length': bytes.length });
      if (released) return void res.end(bytes);
      res.write(bytes.subarray(0, first));
      held.add(res);
    },
    { release: () => undefined },
  );
  behaviour.release = () => {
    released = true;
    for (const res of held) res.end(bytes.subarray(first));
    held.clear();
  };
  return behaviour;
}

export const status =
  (code: number): Behaviour =>
  (_req, res) =>
    void res.writeHead(code).end(`status ${code}`);

export const redirect =
  (location: string, code = 302): Behaviour =>
  (_req, res) =>
    void res.writeHead(code, { Location: location }).end();
