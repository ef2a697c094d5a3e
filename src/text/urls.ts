/**
 * Web addresses and e-mail addresses read the way people say them: `https://docs.example.com/a-b` →
 * `docs dot example dot com slash a b`, `ana@example.org` → `ana at example dot org`. The scheme and `www.`
 * are dropped; query strings and fragments are not read.
 */

const WORDS: Record<string, { dot: string; slash: string; at: string }> = {
  en: { dot: 'dot', slash: 'slash', at: 'at' },
  de: { dot: 'Punkt', slash: 'Schrägstrich', at: 'at' },
  fr: { dot: 'point', slash: 'slash', at: 'arobase' },
  es: { dot: 'punto', slash: 'barra', at: 'arroba' },
  it: { dot: 'punto', slash: 'slash', at: 'chiocciola' },
  pt: { dot: 'ponto', slash: 'barra', at: 'arroba' },
  nl: { dot: 'punt', slash: 'slash', at: 'apenstaartje' },
};

const URL_PATTERN = /\b(?:https?:\/\/|www\.)[^\s<>"'`]+[^\s<>"'`.,;:!?)\]]/gi;
// The user part starts where its run of characters starts: tried from each place, `a.a.a…` took seconds.
const EMAIL_PATTERN = /(?<![A-Za-z0-9._%+-])\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g;

function wordsFor(languageCode: string): { dot: string; slash: string; at: string } {
  return WORDS[languageCode.toLowerCase().split('-')[0]] ?? WORDS.en;
}

function readDomain(host: string, dot: string): string {
  return host.split('.').filter(Boolean).join(` ${dot} `);
}

/** One URL as words. */
export function speakUrl(url: string, languageCode = 'en'): string {
  const { dot, slash } = wordsFor(languageCode);
  const withoutScheme = url.replace(/^https?:\/\//i, '').replace(/^www\./i, '');
  const [hostAndPath] = withoutScheme.split(/[?#]/);
  const [host, ...path] = hostAndPath.split('/');
  const parts = [readDomain(host.replace(/:\d+$/, ''), dot)];
  for (const segment of path.filter(Boolean)) {
    const words = decodeSafely(segment)
      .replace(/\.[a-z0-9]{1,5}$/i, (ext) => ` ${dot} ${ext.slice(1)}`)
      .replace(/[-_+~%]+/g, ' ')
      .trim();
    if (words) parts.push(`${slash} ${words}`);
  }
  return parts.join(' ');
}

export function speakEmail(address: string, languageCode = 'en'): string {
  const { dot, at } = wordsFor(languageCode);
  const [user, domain] = address.split('@');
  return `${user.split('.').join(` ${dot} `)} ${at} ${readDomain(domain, dot)}`;
}

/** Replaces every URL and e-mail address in `text` with words. */
export function speakAddresses(text: string, languageCode = 'en'): string {
  return text
    .replace(URL_PATTERN, (url) => speakUrl(url, languageCode))
    .replace(EMAIL_PATTERN, (address) => speakEmail(address, languageCode));
}

function decodeSafely(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
