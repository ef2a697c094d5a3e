/** Where a device's link to the relay goes: the relay's origin from what the user typed, and the WebSocket URL under it. */
import { DEVICE_LINK_PATH, DEVICE_TOKEN_FORMAT } from './protocol';

/** The relay's origin from what the user typed: `https://relay.example`, with or without `/v1`. */
export function relayOrigin(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`Expected the relay's URL such as https://relay.example.com, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new TypeError(`Expected an http(s) relay URL, got ${JSON.stringify(url)}`);
  parsed.pathname = parsed.pathname.replace(/\/+$/, '').replace(/\/v1$/, '') || '/';
  parsed.search = '';
  parsed.hash = '';
  return parsed;
}

/** `path` under the relay's origin, which may itself sit under a path (a relay behind a proxy). */
export const underOrigin = (origin: URL, path: string): URL =>
  new URL(`${origin.pathname.replace(/\/$/, '')}${path}`, origin);

export function linkUrl(origin: URL): string {
  const url = underOrigin(origin, DEVICE_LINK_PATH);
  url.protocol = origin.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * Checks what a device needs to join a relay, the relay's URL and the device's token, throwing TypeError with
 * one sentence: the device client checks it, and a command line checks it before it listens, so a bad token
 * is refused at start rather than after the server was up.
 */
export function checkDeviceLink(relayUrl: string, deviceToken: string): URL {
  const origin = relayOrigin(relayUrl);
  if (!DEVICE_TOKEN_FORMAT.test(deviceToken))
    throw new TypeError('Expected a device token ssd_… (from the relay\'s portal or "relay.js devices enrol")');
  return origin;
}
