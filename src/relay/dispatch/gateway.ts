import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { isWebSocketUpgrade } from '../../http/listen';
import { describeThrown } from '../../util/log';
import { authenticateDevice } from '../data/devices';
import { CHANNELS } from '../db/database';
import { DeviceSession, type SessionHost } from './device-session';
import type { PresenceDeps } from './presence';
import { DEVICE_LINK_PATH } from '../../link/protocol';
import { hostAllowed, hostRefusal } from '../allowed-hosts';

function refuse(socket: Duplex, status: number, reason: string, message: string, code = 'INVALID_API_KEY'): void {
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export interface Gateway {
  /** Devices connected to this instance, by id. */
  readonly sessions: ReadonlyMap<string, DeviceSession>;
  /** Ends every link (their jobs are handled as on any lost link) and stops listening. */
  close(): Promise<void>;
}

/**
 * Accepts device links on this instance's HTTP server and ties them to the database's channels: a job
 * queued for a device connected here is sent at once, whichever instance accepted it.
 */
export async function attachGateway(
  server: Server,
  deps: PresenceDeps & { heartbeatMs: number; allowedHosts?: readonly string[] },
): Promise<Gateway> {
  const sessions = new Map<string, DeviceSession>();
  /** Every link, said hello or not, until its close has been handled. */
  const all = new Set<DeviceSession>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 });
  const host: SessionHost = {
    ...deps,
    register: (session) => {
      const previous = sessions.get(session.device.id);
      sessions.set(session.device.id, session);
      if (previous && previous !== session) previous.supersede(`a newer link from ${session.address}`);
    },
    unregister: (session) => {
      if (sessions.get(session.device.id) === session) sessions.delete(session.device.id);
    },
  };

  const unlisten = [
    await deps.db.listen(CHANNELS.dispatch, (deviceId) => sessions.get(deviceId)?.pump()),
    await deps.db.listen(CHANNELS.cancel, (payload) => {
      const [deviceId, jobId] = payload.split(' ');
      sessions.get(deviceId)?.send({ type: 'cancel', jobId });
    }),
    await deps.db.listen(CHANNELS.presence, (payload) => {
      const [deviceId, sessionId] = payload.split(' ');
      const local = sessions.get(deviceId);
      // A newer link on this instance is handled by `register`; this notice is for links elsewhere.
      const newerIsHere = [...all].some((session) => session.sessionId === sessionId);
      if (local && local.sessionId !== sessionId && !newerIsHere)
        local.supersede('a newer link on another relay instance');
    }),
  ];

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (!isWebSocketUpgrade(req)) return; // the listener answers it as a plain request
    const url = new URL(req.url ?? '/', 'http://relay');
    if (url.pathname !== DEVICE_LINK_PATH)
      return refuse(socket, 404, 'Not Found', 'Devices connect at /v1/devices/connect.');
    const hostHeader = req.headers.host ?? '';
    if (!hostAllowed(deps.allowedHosts, hostHeader))
      return refuse(socket, 403, 'Forbidden', hostRefusal(hostHeader), 'HOST_NOT_ALLOWED');
    const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    authenticateDevice(deps.db, match?.[1] ?? '').then(
      (device) => {
        if (!device)
          return refuse(socket, 401, 'Unauthorized', 'The device token is wrong, or the device was removed.');
        wss.handleUpgrade(req, socket, head, (ws) => {
          const session = new DeviceSession(ws, device, host, req.socket.remoteAddress);
          all.add(session);
          void session.ended.then(() => all.delete(session));
        });
      },
      (error) => {
        deps.log.warn(`Device link refused: ${describeThrown(error)}`);
        refuse(socket, 503, 'Service Unavailable', 'The relay cannot reach its database.');
      },
    );
  };
  server.on('upgrade', onUpgrade);

  return {
    sessions,
    async close() {
      server.off('upgrade', onUpgrade);
      for (const stop of unlisten) await stop();
      const open = [...all];
      for (const session of open) session.close(1001, 'relay shutting down');
      // Each link's close handler interrupts or re-routes its jobs; wait until they are done.
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, 5_000).unref());
      await Promise.race([Promise.all(open.map((session) => session.ended)), timeout]);
      for (const client of wss.clients) client.terminate();
      await Promise.race([Promise.all(open.map((session) => session.ended)), timeout]);
      wss.close();
    },
  };
}
