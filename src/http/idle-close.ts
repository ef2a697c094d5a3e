import type { Socket } from 'node:net';

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
