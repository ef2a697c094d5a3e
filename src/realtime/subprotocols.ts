/**
 * What a Realtime client says in `Sec-WebSocket-Protocol`. Browsers cannot set headers on a WebSocket, so
 * OpenAI's guides (and the clients that follow them) pass the API key as `openai-insecure-api-key.<key>` and the
 * beta protocol as `openai-beta.realtime-v1`, next to `realtime`. The server must then pick one protocol the
 * client offered (a browser drops a connection that picks none), and never the one that carries the key.
 */
const KEY_PREFIX = 'openai-insecure-api-key.';
const BETA = 'openai-beta.realtime-v1';

export interface OfferedProtocols {
  /** The API key passed as a subprotocol, if any. */
  key: string | undefined;
  /** The client asked for the beta form of the protocol. */
  beta: boolean;
}

export function offeredProtocols(header: string | string[] | undefined): OfferedProtocols {
  const offered = protocolList(header);
  const keyed = offered.find((protocol) => protocol.startsWith(KEY_PREFIX));
  return { key: keyed === undefined ? undefined : keyed.slice(KEY_PREFIX.length), beta: offered.includes(BETA) };
}

/** The protocol the server answers with: `realtime` when offered, else the first that carries no key. */
export function chooseProtocol(offered: Set<string>): string | false {
  if (offered.has('realtime')) return 'realtime';
  return [...offered].find((protocol) => !protocol.startsWith(KEY_PREFIX)) ?? false;
}

function protocolList(header: string | string[] | undefined): string[] {
  const joined = Array.isArray(header) ? header.join(',') : (header ?? '');
  return joined
    .split(',')
    .map((protocol) => protocol.trim())
    .filter((protocol) => protocol !== '');
}
