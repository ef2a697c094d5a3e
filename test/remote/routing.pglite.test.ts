/**
 * Routing by measured speed end to end: two real devices, one of them really slower (its engine takes
 * ten times as long: SPEECH_STUDIO_ENGINE_SLOWDOWN), each measuring itself on joining and on every job.
 * Long jobs go to the fast device while it is free and queue there rather than run on the slow one; a
 * short job goes to the slow device while the fast one has a long queue.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { addCredits } from '../../src/relay/data/accounts';
import { isTerminal, request, waitFor } from '../helpers/server';
import { startDevice, type TestDevice } from './helpers/device';
import { bearer, makeDevice, makeKey, startTestRelay, type TestRelay } from './helpers/relay';
import { createTts, deviceOf, ENGLISH_VOICE, waitJob } from './helpers/scenarios';

/** About 150 s of speech by the relay's estimate (15 characters a second): a few seconds of work for espeak-ng. */
const LONG = Array.from({ length: 45 }, (_, i) => `Sentence ${i + 1} of a longer narration.`).join(' ');
const SHORT = 'Hello.';

interface Estimate {
  id: string;
  jobsAhead: number;
  busySeconds: number | null;
  realTimeFactors: Array<{ kind: string; model: string; realTimeFactor: number; samples: number }>;
}

describe('routing by measured speed', () => {
  let relay: TestRelay;
  let key: string;
  let fast: TestDevice & { id: string };
  let slow: TestDevice & { id: string };

  const estimates = async (): Promise<Estimate[]> =>
    (await request(`${relay.base}/capabilities`, { headers: bearer(key) })).json().devices.estimates;
  const espeakFactor = (list: Estimate[], id: string): number | undefined =>
    list.find((e) => e.id === id)?.realTimeFactors.find((r) => r.kind === 'tts' && r.model === ENGLISH_VOICE)
      ?.realTimeFactor;
  const create = async (text: string): Promise<string> => {
    const res = await createTts(relay.base, key, text);
    assert.equal(res.status, 200, res.body.toString());
    return res.json().id;
  };

  before(async () => {
    relay = await startTestRelay({ heartbeatMs: 1_000 });
    key = await makeKey(relay.db, relay.relay.accountId);
    await addCredits(relay.db, relay.relay.accountId, 1_000);
    const [fastEnrolment, slowEnrolment] = [
      await makeDevice(relay.db, relay.relay.accountId, 'fast'),
      await makeDevice(relay.db, relay.relay.accountId, 'slow'),
    ];
    const [fastDevice, slowDevice] = await Promise.all([
      startDevice({ relayOrigin: relay.origin, token: fastEnrolment.token, stt: false, calibrateSeconds: 120 }),
      startDevice({
        relayOrigin: relay.origin,
        token: slowEnrolment.token,
        stt: false,
        calibrateSeconds: 120,
        env: { SPEECH_STUDIO_ENGINE_SLOWDOWN: '10' },
      }),
    ]);
    fast = Object.assign(fastDevice, { id: fastEnrolment.id });
    slow = Object.assign(slowDevice, { id: slowEnrolment.id });
    await Promise.all([fast.connected(), slow.connected()]);
  });
  after(async () => {
    await fast?.dispose();
    await slow?.dispose();
    await relay?.dispose();
  });

  it('each device calibrates on joining and the relay shows what it measured', async () => {
    // A loaded machine (tests share two cores) is slow to start engines: the limit here is generous, as is the devices'.
    const measured = await waitFor(
      'both calibrations',
      estimates,
      (list) => espeakFactor(list, fast.id) !== undefined && espeakFactor(list, slow.id) !== undefined,
      120_000,
    );
    const [fastFactor, slowFactor] = [espeakFactor(measured, fast.id)!, espeakFactor(measured, slow.id)!];
    assert.ok(
      slowFactor > 2 * fastFactor,
      `the throttled device measured itself slower: ${slowFactor} vs ${fastFactor}`,
    );
    for (const e of measured) assert.deepEqual([e.jobsAhead, e.busySeconds], [0, 0]);
    assert.match(fast.output(), /Speed calibration: real-time factor espeak-ng/);
  });

  it('long jobs go to the fast device while it is free, and queue there rather than run on the slow one', async () => {
    const first = await create(LONG);
    assert.equal(await deviceOf(relay.db, first), fast.id);
    assert.equal((await waitJob(relay.base, key, first, isTerminal)).status, 'succeeded');
    const second = await create(LONG);
    const third = await create(LONG);
    assert.deepEqual([await deviceOf(relay.db, second), await deviceOf(relay.db, third)], [fast.id, fast.id]);
    for (const id of [second, third])
      assert.equal((await waitJob(relay.base, key, id, isTerminal)).status, 'succeeded');
  });

  it('a short job goes to the slow device while the fast one has a long queue', async () => {
    const queued = [await create(LONG), await create(LONG)];
    assert.deepEqual(await Promise.all(queued.map((id) => deviceOf(relay.db, id))), [fast.id, fast.id]);
    const view = await estimates();
    const fastView = view.find((e) => e.id === fast.id)!;
    assert.equal(fastView.jobsAhead, 2);
    assert.ok(fastView.busySeconds !== null && fastView.busySeconds > 0, JSON.stringify(fastView));
    const short = await create(SHORT);
    assert.equal(await deviceOf(relay.db, short), slow.id, JSON.stringify(view));
    assert.equal((await waitJob(relay.base, key, short, isTerminal)).status, 'succeeded');
    for (const id of queued) assert.equal((await waitJob(relay.base, key, id, isTerminal)).status, 'succeeded');
    // What the jobs measured joined the calibration's figure: the fast device's median is over several runs now.
    const after = await estimates();
    assert.ok(
      after.find((e) => e.id === fast.id)!.realTimeFactors.find((r) => r.model === ENGLISH_VOICE)!.samples >= 4,
    );
  });
});

describe('speeds on the device link', () => {
  let relay: TestRelay;
  let key: string;
  before(async () => {
    relay = await startTestRelay({ heartbeatMs: 60_000 });
    key = await makeKey(relay.db, relay.relay.accountId);
  });
  after(async () => relay?.dispose());

  it("the relay keeps the speeds of a hello and replaces them with a heartbeat's; a malformed report is ignored, the link kept", async () => {
    const { id, token } = await makeDevice(relay.db, relay.relay.accountId, 'reporter');
    const ws = new WebSocket(`${relay.origin.replace('http', 'ws')}/v1/devices/connect`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    const welcomed = new Promise<void>((resolve) =>
      ws.on('message', (data) => JSON.parse((data as Buffer).toString()).type === 'welcome' && resolve()),
    );
    const speed = (realTimeFactor: number, model = ENGLISH_VOICE) => ({
      kind: 'tts',
      engine: 'espeak-ng',
      model,
      realTimeFactor,
      samples: 1,
    });
    const factors = async () =>
      (await request(`${relay.base}/capabilities`, { headers: bearer(key) }))
        .json()
        .devices.estimates.find((e: Estimate) => e.id === id)
        .realTimeFactors.map((r: { model: string; realTimeFactor: number }) => [r.model, r.realTimeFactor]);
    try {
      await new Promise((resolve) => ws.once('open', resolve));
      ws.send(
        JSON.stringify({
          type: 'hello',
          protocol: 1,
          activeJobs: [],
          speeds: [speed(0.5)],
          capabilities: {
            version: 'test',
            tts: { voices: [] },
            stt: { models: [], diarization: false },
            queueCapacity: 1,
          },
        }),
      );
      await welcomed;
      assert.deepEqual(await factors(), [[ENGLISH_VOICE, 0.5]]);
      ws.send(
        JSON.stringify({
          type: 'heartbeat',
          speeds: [{ kind: 'tts', engine: 'x', model: 'y', realTimeFactor: -1, samples: 1 }],
        }),
      );
      ws.send(JSON.stringify({ type: 'heartbeat', speeds: [speed(0.25), speed(2, 'other-voice')] }));
      await waitFor('the second report', factors, (list) => list.length === 2);
      assert.deepEqual(
        (await factors()).sort(),
        [
          [ENGLISH_VOICE, 0.25],
          ['other-voice', 2],
        ].sort(),
      );
      assert.equal(ws.readyState, WebSocket.OPEN, 'the malformed report did not end the link');
    } finally {
      ws.close();
      await closed;
    }
  });
});
