import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Characters after the prefix that are stored in clear to find the row; the rest stays secret. */
const LOOKUP_CHARS = 8;

export function randomBase62(length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += BASE62[randomInt(BASE62.length)];
  return text;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

export interface SecretFormat {
  prefix: string;
  length: number;
}

/** Remote API keys (docs/decisions.md): `ssk_live_` + 40 base62 characters. */
export const API_KEY_FORMAT: SecretFormat = { prefix: 'ssk_live_', length: 40 };
/** Device tokens: `ssd_` + 40 base62 characters. */
export const DEVICE_TOKEN_FORMAT: SecretFormat = { prefix: 'ssd_', length: 40 };

export interface NewSecret {
  plaintext: string;
  lookup: string;
  hash: string;
}

/** A new secret; store only `lookup` and `hash`, show `plaintext` once. */
export function newSecret(format: SecretFormat): NewSecret {
  const plaintext = format.prefix + randomBase62(format.length);
  return { plaintext, lookup: lookupOf(plaintext, format)!, hash: sha256Hex(plaintext) };
}

/** The clear part a row is found by, or undefined when `given` cannot be a secret of this format. */
export function lookupOf(given: string, format: SecretFormat): string | undefined {
  if (given.length !== format.prefix.length + format.length || !given.startsWith(format.prefix)) return undefined;
  if (!/^[A-Za-z0-9]+$/.test(given.slice(format.prefix.length))) return undefined;
  return given.slice(0, format.prefix.length + LOOKUP_CHARS);
}

/** Compares the hash of `given` with a stored hash in constant time. */
export function secretMatches(given: string, storedHash: string): boolean {
  const a = Buffer.from(sha256Hex(given), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A public id such as `dev_` + 16 base62 characters. */
export const publicId = (prefix: string, length: number): string => prefix + randomBase62(length);
