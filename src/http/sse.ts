/**
 * Server-Sent Events on a Koa response: one writer for the OpenAI door's streams and the live job events.
 * A comment line every 15 s keeps idle connections (and proxies) from closing the stream.
 */
import type { Context } from 'koa';
import { PassThrough } from 'node:stream';

const HEARTBEAT_MS = 15_000;

export interface SseEvent {
  id?: string;
  event?: string;
  data: unknown;
}

export interface SseStream {
  send(event: SseEvent): void;
  end(): void;
  /** True once the client went away or end() was called. */
  readonly closed: boolean;
  /** Aborted when the client goes away before end(). */
  readonly signal: AbortSignal;
}

/** Starts an event stream as the response (status 200, sent as soon as the handler returns). */
export function openSse(ctx: Context): SseStream {
  const stream = new PassThrough();
  const controller = new AbortController();
  let closed = false;
  ctx.status = 200;
  ctx.type = 'text/event-stream; charset=utf-8';
  ctx.set({ 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
  ctx.req.socket.setNoDelay(true);
  ctx.body = stream;
  const heartbeat = setInterval(() => stream.write(':\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const finish = (): void => {
    closed = true;
    clearInterval(heartbeat);
  };
  ctx.res.once('close', () => {
    if (!closed) controller.abort();
    finish();
  });
  return {
    send({ id, event, data }) {
      if (closed) return;
      const payload = typeof data === 'string' ? data : JSON.stringify(data);
      let text = '';
      if (id !== undefined) text += `id: ${id}\n`;
      if (event !== undefined) text += `event: ${event}\n`;
      for (const line of payload.split('\n')) text += `data: ${line}\n`;
      stream.write(`${text}\n`);
    },
    end() {
      if (closed) return;
      finish();
      stream.end();
    },
    get closed() {
      return closed;
    },
    signal: controller.signal,
  };
}
