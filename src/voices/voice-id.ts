/**
 * Stable voice ids: RFC 4122 name-based UUIDs (version 5, SHA-1), so a builtin voice keeps its id across
 * installs, machines and releases without storing anything.
 */
import { createHash } from 'node:crypto';

/** Speech Studio's namespace for voice ids. Never change it: every builtin voice id derives from it. */
export const VOICE_ID_NAMESPACE = 'fa3642d2-7aa0-415f-8be2-0d0ae2cc1cfc';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The version 5 UUID of `name` in `namespace`.
 *
 * @example uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8') // '2ed6657d-e927-568b-95e1-2665a8aea6a2'
 */
export function uuidV5(name: string, namespace: string): string {
  if (!UUID.test(namespace)) throw new TypeError(`Expected a UUID namespace, got ${namespace}`);
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x50; // version 5
  hash[8] = (hash[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id of an engine's builtin voice, e.g. `voiceIdFor('espeak-ng', 'gmw/en-US')`. */
export function voiceIdFor(engine: string, engineVoiceId: string): string {
  return uuidV5(`${engine}:${engineVoiceId}`, VOICE_ID_NAMESPACE);
}
