/**
 * Lexicon test helpers: PUT /lexicon, and the audio of the first TTS job of a fresh server (espeak-ng's noise
 * source carries its state from one synthesis to the next in a process, so only a first job is repeatable).
 */
import assert from 'node:assert/strict';
import { isTerminal, postJson, request, startTestServer, waitForJob, type TestServer } from './server';

export const putLexicon = (base: string, document: unknown, headers: Record<string, string> = {}) =>
  request(`${base}/lexicon`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(document),
  });

/**
 * The output of one TTS job on a fresh server with this lexicon (or none): `voiceOf` puts the voice in place
 * and answers its id; `options` join the request body.
 */
export async function firstJobAudio(
  voiceOf: (t: TestServer) => Promise<string>,
  lexicon: unknown,
  text: string,
  options: Record<string, unknown> = {},
): Promise<{ job: any; audio: Buffer }> {
  const t = await startTestServer();
  try {
    const voiceId = await voiceOf(t);
    if (lexicon) {
      const put = await putLexicon(t.base, lexicon);
      assert.equal(put.status, 200, put.body.toString());
    }
    const created = await postJson(`${t.base}/tts/jobs`, { voiceId, text, sampleRate: 22050, ...options });
    assert.equal(created.status, 200, created.body.toString());
    const job = await waitForJob(t.base, created.json().id, isTerminal, 60_000);
    assert.equal(job.status, 'succeeded', job.error);
    return { job, audio: (await request(`${t.base}/jobs/${job.id}/output`)).body };
  } finally {
    await t.dispose();
  }
}
