/**
 * Outside probe of the Server-Sent Events streams (job events and OpenAI speech as SSE): reconnects with
 * Last-Event-ID garbage, a crowd of subscribers that leave at random points, clients that vanish mid-stream
 * and odd request headers. Each stream answers (200 events, 204 or a 4xx body) and ends with the job,
 * never a 5xx or a stream that stays open after its job ended.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { isTerminal, postJson, request, waitForJob } from '../helpers/server';
import { readSse, type ReceivedEvent } from '../helpers/sse';
import { englishVoiceId, LONG_TEXT } from '../helpers/voices';
import { probeEnds, useProbeServer, withDeadline } from './probe-kit';

describe('outside probe: Server-Sent Events', () => {
  const probe = useProbeServer('sse');
  const { tally } = probe;
  let voiceId: string;
  before(async () => {
    voiceId = await englishVoiceId(probe.t.base);
  });

  /** Opens the events of `jobId` and reads them to the end (or `keep` events, then leaves). */
  async function events(
    what: string,
    jobId: string,
    headers: Record<string, string>,
    keep = Infinity,
    opened?: () => void,
    ms?: number,
  ): Promise<{ status: number; events: ReceivedEvent[] }> {
    return tally.probe(
      what,
      async () => {
        const controller = new AbortController();
        const res = await fetch(`${probe.t.base}/jobs/${jobId}/events`, { headers, signal: controller.signal });
        const seen: ReceivedEvent[] = [];
        if (res.status !== 200 || !res.body) {
          opened?.();
          await res.arrayBuffer().catch(() => undefined);
          return { status: res.status, events: seen };
        }
        for await (const event of readSse(res.body)) {
          seen.push(event);
          if (seen.length === 1) opened?.();
          if (seen.length >= keep) {
            controller.abort();
            break;
          }
        }
        return { status: res.status, events: seen };
      },
      (r) => r.status,
      ms,
    );
  }

  const startLongJob = async (): Promise<string> => {
    const created = await postJson(`${probe.t.base}/tts/jobs`, { voiceId, text: LONG_TEXT });
    assert.equal(created.status, 200, created.body.toString());
    return created.json().id;
  };

  const GARBAGE_IDS = [
    'garbage',
    '-1',
    '1e999',
    '99999999999999999999',
    '../../jobs.json',
    '\u00e9\u00e9',
    'x'.repeat(8000),
    'NaN',
    '0-0',
    ' 1 ',
    'a-1-2',
    '%00',
  ];

  it('ends every stream of a running job when it is cancelled, whatever Last-Event-ID garbage a reconnecting client sent', async () => {
    const jobId = await startLongJob();
    const first = await events('events: first connection, leaves after one', jobId, {}, 1);
    assert.equal(first.status, 200);
    const realId = first.events[0].id!;
    const epoch = realId.split('-')[0];
    const ids = [...GARBAGE_IDS, `${epoch}-99999999999999999999`, `${epoch}--5`, realId];
    const connected: Promise<void>[] = [];
    const streams = Promise.all(
      ids.map((id) => {
        let opened!: () => void;
        connected.push(new Promise<void>((resolve) => (opened = resolve)));
        return events(
          `events: Last-Event-ID ${JSON.stringify(id.slice(0, 24))}`,
          jobId,
          { 'Last-Event-ID': id },
          Infinity,
          opened,
        );
      }),
    );
    await Promise.all(connected);
    assert.equal((await request(`${probe.t.base}/jobs/${jobId}/cancel`, { method: 'POST' })).status, 200);
    for (const [i, stream] of (await streams).entries()) {
      assert.equal(stream.status, 200, ids[i]);
      const last = stream.events.at(-1);
      assert.ok(
        last && last.event === 'job' && JSON.parse(last.data).status === 'cancelled',
        `${ids[i].slice(0, 24)}: the stream ended with the cancelled job`,
      );
    }
  });

  it("answers a finished job's events with 204 or a replay that ends, for every Last-Event-ID", async () => {
    const done = (await postJson(`${probe.t.base}/tts/jobs`, { voiceId, text: 'Short.' })).json();
    await waitForJob(probe.t.base, done.id, isTerminal, 60_000);
    for (const id of GARBAGE_IDS) {
      const stream = await events(
        `events of a finished job: Last-Event-ID ${JSON.stringify(id.slice(0, 24))}`,
        done.id,
        { 'Last-Event-ID': id },
      );
      assert.ok(
        stream.status === 204 || (stream.status === 200 && stream.events.at(-1)?.event === 'job'),
        `${id.slice(0, 24)}: ${stream.status}`,
      );
    }
  });

  it('answers events of job ids that are not jobs with 404 and the error body', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', '..%2F..%2Fjobs.json', '%00', 'x'.repeat(3000)]) {
      const res = await tally.probe(
        `events of ${id.slice(0, 24)}`,
        () => request(`${probe.t.base}/jobs/${id}/events`, { headers: { Accept: 'text/event-stream' } }),
        (r) => r.status,
      );
      assert.equal(res.status, 404, id.slice(0, 24));
      assert.equal(res.json().error.code, 'JOB_NOT_FOUND');
    }
  });

  it('serves 25 subscribers of one job of which most leave at random points, and the job still finishes', async () => {
    const created = await postJson(`${probe.t.base}/tts/jobs`, { voiceId, text: LONG_TEXT.slice(0, 1500) });
    const jobId = created.json().id;
    // Those that stay read as long as the job runs, which a loaded machine stretches: their deadline is the
    // job's end (awaited first) plus the usual bound, so a stream left open after its job counts as a hang.
    const crowd = Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        events(
          `events: subscriber ${i} leaves after ${i % 5}`,
          jobId,
          {},
          i % 5 === 0 ? Infinity : i % 5,
          undefined,
          i % 5 === 0 ? 300_000 : undefined,
        ),
      ),
    );
    const job = await waitForJob(probe.t.base, jobId, isTerminal, 240_000);
    assert.equal(job.status, 'succeeded', job.error);
    const streams = await withDeadline("the crowd's streams after the job ended", crowd);
    assert.ok(streams.every((stream) => stream.status === 200));
  });

  it('cancels the OpenAI SSE speech job of a client that vanishes after the first delta, and answers an odd stream request with 4xx', async () => {
    const controller = new AbortController();
    const jobId = await tally.probe(
      'openai sse: vanish after one delta',
      async () => {
        const res = await fetch(`${probe.t.base}/audio/speech`, {
          method: 'POST',
          signal: controller.signal,
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input: LONG_TEXT, stream_format: 'sse' }),
        });
        assert.equal(res.status, 200);
        for await (const event of readSse(res.body!)) {
          assert.match(event.data, /speech\.audio\.delta/);
          break;
        }
        controller.abort();
        return res.headers.get('x-speech-studio-job-id')!;
      },
      () => 200,
    );
    const job = await waitForJob(probe.t.base, jobId, isTerminal, 30_000);
    assert.equal(job.status, 'cancelled');
    for (const [what, body] of [
      [
        'sse with wav',
        { model: 'tts-1', voice: 'alloy', input: 'Hi.', stream_format: 'sse', response_format: 'wav', speed: 'x' },
      ],
      ['sse with stream_format array', { model: 'tts-1', voice: 'alloy', input: 'Hi.', stream_format: ['sse'] }],
    ] as const) {
      const res = await tally.probe(
        `openai sse: ${what}`,
        () => postJson(`${probe.t.base}/audio/speech`, body),
        (r) => r.status,
      );
      assert.ok(res.status >= 400 && res.status < 500, `${what}: ${res.status}`);
    }
  });

  probeEnds(probe, 'answered everything, and wrote nothing outside the data directory');
});
