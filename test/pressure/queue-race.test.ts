/**
 * 50 clients create jobs at the same moment, past the queue's capacity, half of them text-to-speech and
 * half uploads (which hold a place while their body streams in): exactly `capacity` are accepted, the
 * rest get 429 QUEUE_FULL, and every accepted job exists once, with nothing left of the refused ones.
 */
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { uploadMultipart } from '../helpers/multipart';
import { assertErrorBody, postJson, request, type RawResponse, useTestServer } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';
import { installSyntheticWhisper } from './support';

// More places than text-to-speech clients, so uploads are among the accepted whatever the order.
const CAPACITY = 30;
const CLIENTS = 50;

describe('50 clients at once past the queue capacity', () => {
  const t = useTestServer({ queueCapacity: CAPACITY });
  let voiceId: string;
  before(async () => {
    await installSyntheticWhisper(t.dataDir);
    voiceId = await englishVoiceId(t.base);
  });

  it(`accepts exactly ${CAPACITY}, refuses the rest with 429, loses and duplicates none`, async () => {
    const clients = Array.from({ length: CLIENTS }, (_, i): Promise<RawResponse> =>
      i % 2 === 0
        ? postJson(`${t.base}/tts/jobs`, { voiceId, text: `${LONG_TEXT} ${i}` })
        : uploadMultipart(
            `${t.base}/stt/jobs`,
            { language: 'en', diarizationEnabled: 'false' },
            { source: testModel('audio/jfk.wav'), filename: `client-${i}.wav` },
          ),
    );
    const responses = await Promise.all(clients);
    const accepted = responses.filter((r) => r.status === 200).map((r) => r.json());
    const refused = responses.filter((r) => r.status !== 200);
    assert.equal(accepted.length, CAPACITY, responses.map((r) => r.status).join(','));
    assert.equal(refused.length, CLIENTS - CAPACITY);
    for (const r of refused) {
      assertErrorBody(r, 429, 'QUEUE_FULL');
      assert.ok(Number(r.headers['retry-after']) > 0);
    }
    assert.ok(
      accepted.some((j) => j.kind === 'tts') && accepted.some((j) => j.kind === 'stt'),
      'both kinds got places',
    );

    const ids = accepted.map((j) => j.id);
    assert.equal(new Set(ids).size, CAPACITY, 'no duplicated id');
    const apiJobs = t.server.jobs
      .list()
      .filter((j) => j.origin === 'api')
      .map((j) => j.id);
    assert.deepEqual([...apiJobs].sort(), [...ids].sort(), 'the store holds exactly the accepted jobs');
    for (const id of ids) {
      const job = (await request(`${t.base}/jobs/${id}`)).json();
      assert.ok(['queued', 'loading_model', 'processing'].includes(job.status), `${id} is ${job.status}`);
    }
    assert.deepEqual(
      (await readdir(path.join(t.dataDir, 'jobs'))).sort(),
      [...ids].sort(),
      'refused uploads left no folder',
    );

    // Another client is refused while the queue is full, and accepted once a place is freed.
    assertErrorBody(await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'One too many.' }), 429, 'QUEUE_FULL');
    for (const id of ids)
      assert.equal((await request(`${t.base}/jobs/${id}/cancel`, { method: 'POST' })).json().status, 'cancelled');
    const later = await postJson(`${t.base}/tts/jobs`, { voiceId, text: 'Room again.' });
    assert.equal(later.status, 200);
  });
});
