import { rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, before } from 'node:test';
import { startLocalServer, type LocalServer, type LocalServerOptions } from '../../src/host/local-server';
import { silentLogger } from '../../src/util/log';
import { tempDir } from './temp';

export { tempDir };

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
/** The bundled worker: the tests run the real engine process that `npm run build` produced. */
export const ENGINE_WORKER = path.join(PROJECT_ROOT, 'dist', 'engine-worker.js');
export const CLI = path.join(PROJECT_ROOT, 'dist', 'cli.js');

export interface TestServer {
  server: LocalServer;
  dataDir: string;
  base: string;
  /** Closes the server; the data directory stays for a restart on the same folder. */
  stop(): Promise<void>;
  /** Closes the server and removes its data directory. */
  dispose(): Promise<void>;
}

/** A real Local API on a free loopback port, with its own data directory and the real engine worker. */
export async function startTestServer(options: Partial<LocalServerOptions> = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await tempDir());
  const server = await startLocalServer({
    host: '127.0.0.1',
    port: 0,
    auth: false,
    log: silentLogger,
    engineWorkerPath: ENGINE_WORKER,
    // Off unless a test asks: most suites count or kill engine processes, and the cores are shared.
    warmEngine: false,
    ...options,
    dataDir,
  });
  let stopped = false;
  const stop = async () => {
    if (!stopped) await server.close();
    stopped = true;
  };
  return {
    server,
    dataDir,
    base: server.url,
    stop,
    dispose: async () => {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The test server of a suite: call it in a describe; the server starts in that suite's \`before\` (hooks that the
 * suite registers after this call see it) and is disposed, data directory and all, in its \`after\`. The object
 * returned reads the running server, so \`t.base\` and \`t.server\` work inside tests and hooks.
 */
export function useTestServer(options: Partial<LocalServerOptions> = {}): TestServer {
  let started: TestServer | undefined;
  before(async () => {
    started = await startTestServer(options);
  });
  after(() => started?.dispose());
  const running = (): TestServer => {
    if (!started)
      throw new Error("useTestServer(): the server starts in the suite's before hook; read it inside a test or a hook");
    return started;
  };
  return {
    get server() {
      return running().server;
    },
    get dataDir() {
      return running().dataDir;
    },
    get base() {
      return running().base;
    },
    stop: () => running().stop(),
    dispose: () => running().dispose(),
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json(): any;
}

/** A request with full control over headers (fetch forbids some, like Host), answered as raw bytes. */
export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          json: () => JSON.parse(body.toString('utf8')),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A request whose path goes to the server exactly as written (no URL normalization of `..`). */
export function rawPathRequest(port: number, method: string, rawPath: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: rawPath }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          json: () => JSON.parse(body.toString('utf8')),
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

export const postJson = (url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> =>
  request(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** Polls until `check` returns a value, or fails after `timeoutMs` with the last value seen. */
export async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!check(last)) {
    if (Date.now() > deadline)
      throw new Error(`Timed out waiting for ${what}; last value: ${JSON.stringify(last)?.slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 25));
    last = await read();
  }
  return last;
}

export async function waitForJob(
  base: string,
  id: string,
  check: (job: any) => boolean,
  timeoutMs?: number,
  headers?: Record<string, string>,
): Promise<any> {
  return waitFor(`job ${id}`, async () => (await request(`${base}/jobs/${id}`, { headers })).json(), check, timeoutMs);
}

export const isTerminal = (job: { status: string }): boolean =>
  ['succeeded', 'failed', 'cancelled', 'interrupted'].includes(job.status);

export function assertErrorBody(response: RawResponse, status: number, code: string): any {
  const body = response.json();
  if (response.status !== status || body?.error?.code !== code || typeof body.error.message !== 'string') {
    throw new Error(
      `Expected ${status} ${code}, got ${response.status} ${response.body.toString('utf8').slice(0, 300)}`,
    );
  }
  return body;
}
