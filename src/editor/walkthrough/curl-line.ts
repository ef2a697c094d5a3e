/**
 * The terminal commands the walkthrough offers, with the real address and key: first the one-line
 * OpenAI-style speech call (audio straight into a file), then a job of the Local API's own job routes.
 */

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * @example curlLine('http://127.0.0.1:17860/v1', 'ssk_local_…', 'c0ffee…')
 * // curl -s -X POST 'http://127.0.0.1:17860/v1/tts/jobs' -H 'Authorization: Bearer ssk_local_…' -H 'Content-Type: application/json' -d '{"voiceId":…}'
 */
export function curlLine(baseUrl: string, apiKey: string, voiceId: string): string {
  const body = JSON.stringify({ voiceId, text: 'Hello from the terminal, through the Speech Studio Local API.' });
  return [
    'curl -s -X POST',
    shellQuote(`${baseUrl}/tts/jobs`),
    '-H',
    shellQuote(`Authorization: Bearer ${apiKey}`),
    '-H',
    shellQuote('Content-Type: application/json'),
    '-d',
    shellQuote(body),
  ].join(' ');
}

/**
 * The OpenAI-compatible one-liner: POST /audio/speech answers the audio itself, written to `speech.mp3`.
 * @example speechCurlLine('http://127.0.0.1:17860/v1', 'ssk_local_…')
 * // curl -s 'http://127.0.0.1:17860/v1/audio/speech' -H 'Authorization: Bearer ssk_local_…' -H 'Content-Type: application/json' -d '{"model":"tts-1",…}' -o speech.mp3
 */
export function speechCurlLine(baseUrl: string, apiKey: string): string {
  const body = JSON.stringify({
    model: 'tts-1',
    voice: 'alloy',
    input: 'Hello from the terminal, through the Speech Studio Local API.',
  });
  return [
    'curl -s',
    shellQuote(`${baseUrl}/audio/speech`),
    '-H',
    shellQuote(`Authorization: Bearer ${apiKey}`),
    '-H',
    shellQuote('Content-Type: application/json'),
    '-d',
    shellQuote(body),
    '-o speech.mp3',
  ].join(' ');
}
