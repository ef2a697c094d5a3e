/**
 * One GET that follows redirects (at most `maxRedirects`, refusing loops), goes through the proxy the
 * environment names, gives up on a connection that stays silent for `stallTimeoutMs`, and turns every
 * low-level failure into a ModelError that says what happened.
 */
import http, { STATUS_CODES, type IncomingMessage } from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { ModelError, cancelledError } from './model-error';
import { openTunnel, proxyAuthorization, proxyFor, redact, type ProxyEnv } from './proxy';

export interface NetworkOptions {
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read: the process's, from its composition root (src/config/server-environment.ts). */
  env: ProxyEnv;
  /** Extra trusted certificate authorities (Node also honours NODE_EXTRA_CA_CERTS). */
  ca?: string | Buffer | Array<string | Buffer>;
  maxRedirects?: number;
  stallTimeoutMs?: number;
}

export interface OpenedResponse {
  response: IncomingMessage;
  /** The URL that answered, after redirects. */
  url: URL;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'SpeechStudio-ModelInstaller/1';
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Opens `url` and resolves with a 2xx response (or 416, which a resuming caller handles). */
export async function openResponse(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
  options: NetworkOptions,
): Promise<OpenedResponse> {
  const maxRedirects = options.maxRedirects ?? 5;
  let current = new URL(url);
  const seen = new Set([current.href]);
  for (let redirects = 0; ; redirects++) {
    const response = await requestOnce(current, headers, signal, options);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECT_STATUSES.has(status) && location) {
      response.resume();
      const next = new URL(location, current);
      if (seen.has(next.href)) {
        throw new ModelError('REDIRECT_LOOP', `The download of ${url} redirects in a loop (back to ${next.href}).`, { url });
      }
      if (redirects + 1 > maxRedirects) {
        throw new ModelError('TOO_MANY_REDIRECTS', `The download of ${url} was redirected more than ${maxRedirects} times.`, { url });
      }
      seen.add(next.href);
      current = next;
      continue;
    }
    if ((status >= 200 && status < 300) || status === 416) return { response, url: current };
    response.resume();
    const reason = STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : '';
    throw new ModelError('HTTP_ERROR', `${current.host} answered HTTP ${status}${reason} for ${current.href}.`, { status, url: current.href });
  }
}

function requestOnce(
  target: URL,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
  options: NetworkOptions,
): Promise<IncomingMessage> {
  if (signal?.aborted) return Promise.reject(cancelledError());
  const { env } = options;
  const stallTimeoutMs = options.stallTimeoutMs ?? 30_000;
  const allHeaders = { 'User-Agent': USER_AGENT, 'Accept-Encoding': 'identity', ...headers };
  return new Promise<IncomingMessage>((resolve, reject) => {
    let response: IncomingMessage | undefined;
    let proxy: URL | null = null;
    const fail = (error: unknown): void => reject(networkError(error, target, signal, proxy ?? undefined));
    const start = (request: http.ClientRequest): void => {
      request.setTimeout(stallTimeoutMs, () => {
        const stalled = new ModelError('NETWORK', `${target.host} sent nothing for ${Math.round(stallTimeoutMs / 1000)} s.`, { url: target.href });
        request.destroy(stalled);
        response?.destroy(stalled);
      });
      request.on('response', (answer) => {
        response = answer;
        resolve(answer);
      });
      request.on('error', fail);
      request.end();
    };
    try {
      proxy = proxyFor(target, env);
      if (target.protocol === 'https:' && proxy) {
        const port = Number(target.port || 443);
        openTunnel(proxy, target.hostname, port, signal, stallTimeoutMs).then((socket) => {
          const secure = tls.connect({ socket, servername: target.hostname, ca: options.ca });
          start(https.request(target, { headers: allHeaders, signal, createConnection: () => secure }));
        }, fail);
      } else if (proxy) {
        const viaProxy = { ...allHeaders, Host: target.host, ...proxyAuthorization(proxy) };
        start(http.request({ host: proxy.hostname, port: proxy.port || 80, path: target.href, headers: viaProxy, signal, agent: false }));
      } else {
        const client = target.protocol === 'https:' ? https : http;
        start(client.request(target, { headers: allHeaders, signal, agent: false, ca: options.ca }));
      }
    } catch (error) {
      reject(error instanceof ModelError ? error : networkError(error, target, signal));
    }
  });
}

/** A ModelError for whatever a socket, TLS or the abort signal threw. */
export function networkError(error: unknown, target: URL, signal?: AbortSignal, proxy?: URL): ModelError {
  if (error instanceof ModelError) return error;
  if (signal?.aborted || (error as Error)?.name === 'AbortError') return cancelledError();
  const code = (error as NodeJS.ErrnoException)?.code ?? '';
  const message = (error as Error)?.message ?? String(error);
  const where = proxy ? `the proxy ${redact(proxy)}` : target.host;
  if (UNREACHABLE_CODES.has(code)) {
    const advice = proxy ? 'Check the HTTPS_PROXY / HTTP_PROXY setting.' : 'Check the network, or set HTTPS_PROXY if you are behind a proxy, or use a mirror of the model files.';
    return new ModelError('UNREACHABLE', `Cannot reach ${where} (${code}). ${advice}`, { url: target.href });
  }
  if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code)) {
    return new ModelError(
      'UNREACHABLE',
      `The TLS connection to ${target.host} failed (${code}: ${message}). Behind a TLS-inspecting proxy, point NODE_EXTRA_CA_CERTS at your company's CA certificate.`,
      { url: target.href },
    );
  }
  return new ModelError('NETWORK', `The connection to ${target.host} broke: ${message}${code && !message.includes(code) ? ` (${code})` : ''}.`, { url: target.href });
}
