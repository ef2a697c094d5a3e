/**
 * Corporate proxies: `HTTPS_PROXY` / `HTTP_PROXY` (lower case wins, as in curl) with `NO_PROXY`. HTTPS
 * goes through an HTTP CONNECT tunnel; plain HTTP is sent to the proxy with an absolute URI.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { ModelError } from './model-error';

export type ProxyEnv = Record<string, string | undefined>;

/** The proxy to use for `target`, or null to connect directly. */
export function proxyFor(target: URL, env: ProxyEnv): URL | null {
  if (bypassesProxy(target, env.no_proxy ?? env.NO_PROXY ?? '')) return null;
  const raw =
    target.protocol === 'https:'
      ? env.https_proxy ?? env.HTTPS_PROXY ?? env.all_proxy ?? env.ALL_PROXY
      : env.http_proxy ?? env.HTTP_PROXY ?? env.all_proxy ?? env.ALL_PROXY;
  if (!raw?.trim()) return null;
  let proxy: URL;
  try {
    proxy = new URL(raw.includes('://') ? raw.trim() : `http://${raw.trim()}`);
  } catch {
    throw new ModelError('PROXY_ERROR', `The proxy setting ${JSON.stringify(raw)} is not a URL.`);
  }
  if (proxy.protocol !== 'http:') {
    throw new ModelError('PROXY_ERROR', `Only http:// proxies are supported, got ${proxy.protocol}// in ${redact(proxy)}.`);
  }
  return proxy;
}

/**
 * `NO_PROXY` as curl reads it: comma- or space-separated host names (a name also covers its subdomains,
 * a leading `.` or `*.` is allowed), optional `:port`, literal IPs, and `*` for every host.
 */
export function bypassesProxy(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  return noProxy
    .split(/[\s,]+/)
    .filter(Boolean)
    .some((rawEntry) => {
      if (rawEntry === '*') return true;
      const [, name, entryPort] = /^\[?(.+?)\]?(?::(\d+))?$/.exec(rawEntry.toLowerCase()) ?? [];
      if (!name || (entryPort && entryPort !== port)) return false;
      const bare = name.replace(/^\*?\./, '');
      return host === bare || host.endsWith(`.${bare}`);
    });
}

export function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'Proxy-Authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/** The proxy URL without its password, for messages. */
export function redact(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

/** Opens a TCP tunnel to host:port through the proxy with HTTP CONNECT. */
export function openTunnel(proxy: URL, host: string, port: number, signal?: AbortSignal, timeoutMs = 30_000): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    const request = http.request({
      host: proxy.hostname,
      port: proxy.port || 80,
      method: 'CONNECT',
      path: authority,
      headers: { Host: authority, ...proxyAuthorization(proxy) },
      agent: false,
      signal,
    });
    request.once('connect', (response, socket, head) => {
      // From here the tunnel belongs to the HTTPS request, which has its own stall timeout.
      socket.setTimeout(0);
      socket.removeAllListeners('timeout');
      if (response.statusCode !== 200) {
        socket.destroy();
        const why = response.statusCode === 407 ? 'asks for credentials (407); put them in the proxy URL' : `answered ${response.statusCode}`;
        reject(new ModelError('PROXY_ERROR', `The proxy ${redact(proxy)} refused to connect to ${authority}: it ${why}.`));
        return;
      }
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    request.setTimeout(timeoutMs, () => {
      request.destroy(new ModelError('NETWORK', `The proxy ${redact(proxy)} did not answer CONNECT ${authority} within ${Math.round(timeoutMs / 1000)} s.`));
    });
    request.once('error', (error) => reject(error));
    request.end();
  });
}
