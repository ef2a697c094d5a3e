import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How many requests of each socket are still being answered (pipelined requests count one each). */
const answering = new WeakMap<Socket, number>();

/** Counts `res` as being answered on `socket` until it is finished or closed. */
export function markAnswering(socket: Socket, res: ServerResponse): void {
  answering.set(socket, (answering.get(socket) ?? 0) + 1);
  let counted = true;
  const done = (): void => {
    if (!counted) return;
    counted = false;
    const left = (answering.get(socket) ?? 1) - 1;
    if (left > 0) answering.set(socket, left);
    else answering.delete(socket);
  };
  res.once('finish', done);
  res.once('close', done);
}

/**
 * Whether the server is still working on a request of `socket` with nothing of it waiting to be sent: such a
 * connection is silent, not idle. Bytes waiting in the socket's buffer mean the client stopped reading.
 */
export const isAnswering = (socket: Socket): boolean => answering.has(socket) && socket.writableLength === 0;

/**
 * Closes a connection whose idle or keep-alive time ran out, unless bytes arrived meanwhile. After the event
 * loop was busy past the deadline, the timer runs before the loop reads what the client sent in time, so
 * closing at once would reset a client in the middle of sending a request on a kept-alive connection. One
 * turn of the loop later those bytes have been read (and the new request has re-armed the timers): close
 * only a connection that brought nothing.
 */
export function closeIdleSocket(socket: Socket): void {
  const seen = socket.bytesRead;
  setImmediate(() => {
    if (socket.bytesRead === seen) socket.destroy();
  });
}
