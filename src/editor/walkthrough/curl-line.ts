/** The terminal command the walkthrough offers: a TTS job through the Local API, with the real address and key. */

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * @example curlLine('http://127.0.0.1:17860/v1', 'ssk_local_…', 'c0ffee…')
 * // curl -s -X POST 'http://127.0.0.1:17860/v1/tts/jobs' -H 'Authorization: Bearer ssk_local_…' -H 'Content-Type: application/json' -d '{"voiceId":…}'
 */
export function curlLine(baseUrl: string, apiKey: string, voiceId: string): string {
  const body = JSON.stringify({ voiceId, text: 'Hello from the terminal, through the Speech Studio Local API.' });
  return [
    'curl -s -X POST', shellQuote(`${baseUrl}/tts/jobs`),
    '-H', shellQuote(`Authorization: Bearer ${apiKey}`),
    '-H', shellQuote('Content-Type: application/json'),
    '-d', shellQuote(body),
  ].join(' ');
}
