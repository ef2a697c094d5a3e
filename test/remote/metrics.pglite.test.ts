/**
 * GET /metrics on the relay: off without a token, refused without the right bearer token, and with it a
 * Prometheus text exposition a scraper can parse, whose numbers follow the jobs, the devices and storage.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertErrorBody, request, waitFor } from '../helpers/server';
import { connectFakeDevice, type FakeDevice } from './helpers/fake-device';
import { bearer, makeDevice, makeKey, startTestRelay, type TestRelay } from './helpers/relay';
import { createTts } from './helpers/scenarios';

const TOKEN = 'metrics-token-for-the-test-0123456789';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A strict reader of the text exposition format 0.0.4: every line is a HELP, a TYPE or a sample of a family
 * declared before it; label values are quoted with \\, \" and \n escapes; values are numbers.
 */
function parseExposition(text: string): { types: Map<string, string>; samples: Sample[] } {
  assert.ok(text.endsWith('\n'), 'the exposition ends with a line feed');
  const types = new Map<string, string>();
  const helped = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.slice(0, -1).split('\n')) {
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$/.exec(line);
    if (comment) {
      const [, kind, name, rest] = comment;
      if (kind === 'HELP') helped.add(name);
      else {
        assert.match(rest, /^(counter|gauge|histogram|summary|untyped)$/, line);
        assert.ok(!types.has(name), `TYPE ${name} appears once`);
        types.set(name, rest);
      }
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(sample, `not a sample line: ${JSON.stringify(line)}`);
    const [, name, , labelText = '', valueText] = sample;
    const labels: Record<string, string> = {};
    const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/gy;
    let consumed = 0;
    for (const match of labelText.matchAll(labelPattern)) {
      labels[match[1]] = match[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      consumed += match[0].length;
    }
    assert.equal(consumed, labelText.length, `labels of ${JSON.stringify(line)}`);
    const value = Number(valueText === '+Inf' ? Infinity : valueText);
    assert.ok(!Number.isNaN(value), `value of ${JSON.stringify(line)}`);
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    assert.ok(types.has(family), `${name} has a TYPE line before it`);
    assert.ok(helped.has(family), `${name} has a HELP line`);
    samples.push({ name, labels, value });
  }
  return { types, samples };
}

const scrape = async (origin: string) => {
  const res = await request(`${origin}/metrics`, { headers: bearer(TOKEN) });
  assert.equal(res.status, 200, res.body.toString());
  assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  return parseExposition(res.body.toString());
};

const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}): number => {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  assert.equal(found.length, 1, `exactly one ${name} ${JSON.stringify(labels)}`);
  return found[0].value;
};

describe("the relay's /metrics", () => {
  let relay: TestRelay;
  let key: string;
  let device: FakeDevice | undefined;

  before(async () => {
    relay = await startTestRelay({ metricsToken: TOKEN });
    key = await makeKey(relay.db, relay.relay.accountId);
  });
  after(async () => {
    device?.close();
    await relay?.dispose();
  });

  it('is not served without --metrics-token', async () => {
    const plain = await startTestRelay();
    try {
      assertErrorBody(await request(`${plain.origin}/metrics`, { headers: bearer(TOKEN) }), 404, 'NOT_FOUND');
    } finally {
      await plain.dispose();
    }
  });

  it('refuses a scrape without the token (401 AUTH_REQUIRED) or with another (401 INVALID_API_KEY)', async () => {
    const missing = await request(`${relay.origin}/metrics`);
    assertErrorBody(missing, 401, 'AUTH_REQUIRED');
    assert.equal(missing.headers['www-authenticate'], 'Bearer realm="metrics"');
    assertErrorBody(await request(`${relay.origin}/metrics`, { headers: bearer(`${TOKEN}x`) }), 401, 'INVALID_API_KEY');
    assertErrorBody(await request(`${relay.origin}/metrics`, { headers: bearer(key) }), 401, 'INVALID_API_KEY');
  });

  it('a real scrape parses, and its numbers follow the devices, the jobs and the storage', async () => {
    const empty = await scrape(relay.origin);
    assert.equal(empty.types.get('speech_relay_jobs'), 'gauge');
    assert.equal(empty.types.get('speech_relay_dispatch_latency_seconds'), 'histogram');
    assert.equal(valueOf(empty.samples, 'speech_relay_devices_online'), 0);
    for (const state of ['queued', 'loading_model', 'processing', 'succeeded', 'failed', 'cancelled', 'interrupted']) {
      assert.equal(valueOf(empty.samples, 'speech_relay_jobs', { state, kind: 'tts' }), 0, state);
    }

    const { token } = await makeDevice(relay.db, relay.relay.accountId, 'metrics');
    device = await connectFakeDevice(relay.origin, token);
    const created = await createTts(relay.base, key, 'Counted by the metrics.');
    assert.equal(created.status, 200, created.body.toString());
    const jobId = created.json().id as string;
    await device.assignment(jobId);
    // Sent to the device, not started: queued on the device's side.
    const sent = await scrape(relay.origin);
    assert.equal(valueOf(sent.samples, 'speech_relay_devices_online'), 1);
    assert.equal(valueOf(sent.samples, 'speech_relay_instance_device_links'), 1);
    assert.equal(valueOf(sent.samples, 'speech_relay_devices_enrolled'), 1);
    assert.equal(valueOf(sent.samples, 'speech_relay_jobs', { state: 'queued', kind: 'tts' }), 1);
    assert.equal(valueOf(sent.samples, 'speech_relay_queue_depth', { where: 'device' }), 1);
    assert.equal(valueOf(sent.samples, 'speech_relay_queue_depth', { where: 'relay' }), 0);
    assert.equal(valueOf(sent.samples, 'speech_relay_dispatch_latency_seconds_count', { kind: 'tts' }), 1);
    const buckets = sent.samples.filter(
      (s) => s.name === 'speech_relay_dispatch_latency_seconds_bucket' && s.labels.kind === 'tts',
    );
    assert.equal(buckets.at(-1)!.labels.le, '+Inf');
    assert.equal(buckets.at(-1)!.value, 1);
    for (let i = 1; i < buckets.length; i++) {
      assert.ok(
        Number(buckets[i].labels.le === '+Inf' ? Infinity : buckets[i].labels.le) > Number(buckets[i - 1].labels.le),
        'le grows',
      );
      assert.ok(buckets[i].value >= buckets[i - 1].value, 'buckets are cumulative');
    }
    assert.ok(valueOf(sent.samples, 'speech_relay_dispatch_latency_seconds_sum', { kind: 'tts' }) >= 0);

    // The device finishes the job with an output: succeeded, and its bytes count as stored.
    const output = Buffer.alloc(4096, 7);
    const put = await request(`${relay.base}/device/jobs/${jobId}/output`, {
      method: 'PUT',
      headers: { ...bearer(token), 'Content-Type': 'audio/wav', 'Content-Length': String(output.length) },
      body: output,
    });
    assert.equal(put.status, 204, put.body.toString());
    device.send({
      type: 'update',
      jobId,
      status: 'succeeded',
      progress: 100,
      phase: 'done',
      result: {
        mediaType: 'audio/wav',
        outputFormat: 'wav',
        sampleRate: 22050,
        audioChannels: 'mono',
        durationSeconds: 1,
        bytes: 1,
      },
    });
    await waitFor(
      'the job to succeed',
      async () =>
        (await relay.db.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [jobId]))[0].status,
      (status) => status === 'succeeded',
      10_000,
    );
    const done = await scrape(relay.origin);
    assert.equal(valueOf(done.samples, 'speech_relay_jobs', { state: 'succeeded', kind: 'tts' }), 1);
    assert.equal(valueOf(done.samples, 'speech_relay_jobs', { state: 'queued', kind: 'tts' }), 0);
    assert.equal(valueOf(done.samples, 'speech_relay_queue_depth', { where: 'device' }), 0);
    assert.equal(valueOf(done.samples, 'speech_relay_storage_bytes'), 4096);

    device.close();
    device = undefined;
    await waitFor(
      'the device to be offline',
      async () => valueOf((await scrape(relay.origin)).samples, 'speech_relay_devices_online'),
      (n) => n === 0,
      15_000,
    );
  });
});
