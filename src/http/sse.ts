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
  /** Queues an event; false when the client is behind and the sender should wait for `drained()`. */
  send(event: SseEvent): boolean;
  /**
   * Resolves once the client has taken what was queued (or is gone): a sender of bulk data (speech audio)
   * awaits it, so a client that does not read holds the sender, not the server's memory. A client that
   * stays stalled is dropped by the listener's idle limit, which aborts `signal`.
   */
  drained(): Promise<void>;
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
      if (closed) return false;
      const payload = typeof data === 'string' ? data : JSON.stringify(data);
      let text = '';
      if (id !== undefined) text += `id: ${id}\n`;
      if (event !== undefined) text += `event: ${event}\n`;
      for (const line of payload.split('\n')) text += `data: ${line}\n`;
      return stream.write(`${text}\n`);
    },
    drained() {
      if (closed || !stream.writableNeedDrain) return Promise.resolve();
      return new Promise((resolve) => {
        const done = (): void => {
          stream.off('drain', done);
          ctx.res.off('close', done);
          resolve();
        };
        stream.once('drain', done);
        ctx.res.once('close', done);
      });
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
