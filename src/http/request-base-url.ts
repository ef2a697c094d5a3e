/**
 * The base URL a client reached a request at, for the `servers` of the served OpenAPI document: a server
 * bound to 0.0.0.0 or another port than 17860 must not advertise the contract's default address.
 */
import type { Context } from 'koa';

/** A host[:port] as URLs write it: a name, an IPv4 address or a bracketed IPv6 address. Anything else is not echoed. */
const PLAIN_HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

/**
 * The Host header the client sent (or, behind a trusted proxy, the forwarded host and protocol), else the
 * local address and port the connection arrived on. `prefix` is the API's path prefix, e.g. `/v1`.
 */
export function requestBaseUrl(ctx: Context, prefix: string): string {
  const host = ctx.host;
  if (PLAIN_HOST.test(host)) return `${ctx.protocol}://${host}${prefix}`;
  const { localAddress = '127.0.0.1', localPort } = ctx.req.socket;
  const address = localAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  const shown = address.includes(':') ? `[${address}]` : address;
  return `${ctx.protocol}://${shown}:${localPort}${prefix}`;
}
