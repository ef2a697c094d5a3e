/**
 * A tiny forward proxy on 127.0.0.1 for the proxy tests. Whatever host a request names, it forwards to
 * `originPort` on 127.0.0.1 (absolute-URI GETs for http targets, CONNECT tunnels for https targets) and
 * records what it was asked for.
 */
import http from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';

export interface TestProxy {
  url: string;
  /** Absolute URIs of proxied GETs and `host:port` of CONNECT requests. */
  seen: string[];
  authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

export async function startTestProxy(originPort: number): Promise<TestProxy> {
  const seen: string[] = [];
  const authorizations: Array<string | undefined> = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    authorizations.push(req.headers['proxy-authorization']);
    const target = new URL(req.url ?? '/');
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: originPort,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head) => {
    seen.push(req.url ?? '');
    authorizations.push(req.headers['proxy-authorization']);
    const upstream = net.connect(originPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
