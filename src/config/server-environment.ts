/**
 * The server's own environment variables, beside the engine's (engine-environment.ts): the OpenAI voice map
 * and the model mirror. The composition roots read them here once and pass the values down; nothing else in
 * the core or the doors looks at the environment (docs/configuration.md).
 */

export const OPENAI_VOICE_ENV = 'SPEECH_STUDIO_OPENAI_VOICES';
export const MIRROR_ENV = 'SPEECH_STUDIO_MODEL_MIRROR';

/** `SPEECH_STUDIO_OPENAI_VOICES` (OpenAI voice name → our voice id or exact name); throws a TypeError when it is not a JSON object of strings. */
export function openAiVoicesFromEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const raw = env[OPENAI_VOICE_ENV];
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return Object.fromEntries(
        Object.entries(parsed).filter((pair): pair is [string, string] => typeof pair[1] === 'string'),
      );
    }
  } catch {
    // fall through
  }
  throw new TypeError(
    `Expected ${OPENAI_VOICE_ENV} to be a JSON object such as {"alloy":"<voice id or name>"}, got ${raw.slice(0, 100)}`,
  );
}

/** `SPEECH_STUDIO_MODEL_MIRROR`: the base URL model downloads use instead of their origin; undefined when unset or blank. */
export function modelMirrorFromEnvironment(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[MIRROR_ENV]?.trim() || undefined;
}

/** The proxy variables model downloads follow (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, either case), as the process started with. */
export function proxyEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => /^(https?_proxy|no_proxy)$/i.test(name)));
}
