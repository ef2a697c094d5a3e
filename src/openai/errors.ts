/**
 * Errors on the OpenAI-compatible routes in OpenAI's shape, `{ error: { message, type, param, code } }`,
 * with our code in `code`, so the SDKs raise their typed errors (401 → AuthenticationError, 429 →
 * RateLimitError, …). It rewrites what the one error middleware produced, so every rule (auth, Origin,
 * Host, queue) stays in one place and only the wire shape differs.
 */
import type { Middleware } from 'koa';
import { ApiError, registryErrorOf, type ErrorBody } from '../contract/errors';
import { describeThrown, type Logger } from '../util/log';

/** Paths (under /v1) that answer in OpenAI's error shape. */
export const OPENAI_PATHS = /^\/v1\/(audio\/(speech|transcriptions|translations)|models)(\/|$)/;

/** Our field names where they differ from OpenAI's, for `param` and the message that names the field. */
const OPENAI_PARAM: Record<string, string> = {
  text: 'input',
  voiceId: 'voice',
  speed: 'speed',
  outputFormat: 'response_format',
};

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export function openAiErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 402 || status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** `field: what is wrong` messages name the field; that field is OpenAI's `param`. */
export function paramOf(message: string): string | null {
  const match = /^([A-Za-z_][\w.[\]]*): /.exec(message);
  if (!match || match[1] === 'body') return null;
  return OPENAI_PARAM[match[1]] ?? match[1];
}

/** A `field: what is wrong` message with our field name as OpenAI's (`text: …` → `input: …`): the client sent `input`. */
export function inOpenAiNames(message: string): string {
  const field = /^([A-Za-z_]\w*): /.exec(message)?.[1];
  const theirs = field === undefined ? undefined : OPENAI_PARAM[field];
  return theirs === undefined ? message : `${theirs}${message.slice(field!.length)}`;
}

export function toOpenAiError(status: number, body: ErrorBody): OpenAiErrorBody {
  const { code, message } = body.error;
  return { error: { message: inOpenAiNames(message), type: openAiErrorType(status), param: paramOf(message), code } };
}

/**
 * A failure after the answer has started (an event stream), in OpenAI's shape: registry errors as the
 * middleware would answer them; anything else is logged and becomes INTERNAL_ERROR.
 */
export function openAiErrorOf(thrown: unknown, log: Logger): OpenAiErrorBody {
  const registered = registryErrorOf(thrown);
  if (!registered)
    log.error(`OpenAI stream failed: ${thrown instanceof Error ? thrown.stack : describeThrown(thrown)}`);
  const error = registered ?? new ApiError('INTERNAL_ERROR', describeThrown(thrown));
  return toOpenAiError(error.status, error.toBody());
}

const isErrorBody = (body: unknown): body is ErrorBody =>
  typeof body === 'object' && body !== null && typeof (body as ErrorBody).error?.code === 'string';

/** Sits above the error middleware and reshapes its answers on the OpenAI paths. */
export const openAiErrorShape: Middleware = async (ctx, next) => {
  await next();
  if (ctx.status >= 400 && OPENAI_PATHS.test(ctx.path) && isErrorBody(ctx.body)) {
    ctx.body = toOpenAiError(ctx.status, ctx.body);
  }
};
