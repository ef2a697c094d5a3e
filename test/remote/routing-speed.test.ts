/**
 * Routing by measured speed, in pieces: the device's meter (rolling median per engine and model), the
 * speeds' wire check, the relay's finish estimate and pickDevice's choice with and without measurements.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import type { Voice } from '../../src/contract/types';
import { measurementOf, median, SPEED_WINDOW, SpeedMeter } from '../../src/device/speed-meter';
import type { JobService } from '../../src/jobs/job-service';
import type { JobRecord } from '../../src/jobs/types';
import { canRunTts, canRunStt, type DeviceCapabilities } from '../../src/link/capabilities';
import { parseDeviceMessage } from '../../src/link/protocol';
import { parseSpeeds, type SpeedReport } from '../../src/link/speeds';
import type { Device } from '../../src/relay/data/devices';
import {
  busySeconds,
  estimatedFinish,
  mediaSeconds,
  realTimeFactorFor,
  TTS_CHARACTERS_PER_SECOND,
  voiceEngines,
  workOf,
  type Work,
} from '../../src/relay/dispatch/finish-estimate';
import { pickDevice, type Candidate } from '../../src/relay/dispatch/routing';

const VOICE = 'a0000000-0000-4000-8000-000000000000';
const PIPER_VOICE = 'b0000000-0000-4000-8000-000000000000';
const voice = (id: string): Voice => ({
  id,
  name: id,
  languageCode: 'en-US',
  availability: 'ready',
  access: { scope: 'builtin', canUse: true, license: 'x' },
});
const caps: DeviceCapabilities = {
  version: '1',
  tts: { voices: [voice(VOICE), voice(PIPER_VOICE)] },
  stt: { models: [{ name: 'ggml-base.en.bin', englishOnly: true }], diarization: false },
  queueCapacity: 4,
};
const device = (id: string): Device => ({
  id,
  accountId: 1,
  name: id,
  createdAt: 0,
  revokedAt: null,
  draining: false,
  labels: [],
  capabilities: caps,
  sessionId: 's',
  instanceId: 'i',
  connectedAt: 0,
  lastSeenAt: Date.now(),
});
const espeak = (realTimeFactor: number, model = VOICE): SpeedReport => ({
  kind: 'tts',
  engine: 'espeak-ng',
  model,
  realTimeFactor,
  samples: 3,
});
const whisper = (realTimeFactor: number, samples = 3, model = 'ggml-base.en.bin'): SpeedReport => ({
  kind: 'stt',
  engine: 'whisper',
  model,
  realTimeFactor,
  samples,
});
const tts = (characters: number, voiceId = VOICE): Work => ({ kind: 'tts', voiceId, characters });
const needTts = (c: DeviceCapabilities) => canRunTts(c, VOICE);
const routing = { offlineAfterMs: 30_000 };

let nextId = 0;
function finished(over: Partial<JobRecord> & { seconds: number; busyMs: number }): JobRecord {
  const { seconds, busyMs, ...rest } = over;
  return {
    id: `job-${++nextId}`,
    name: 'n',
    kind: 'tts',
    status: 'succeeded',
    progress: 100,
    phase: null,
    backend: 'b',
    error: null,
    createdAt: 0,
    startedAt: 1_000,
    finishedAt: 1_000 + busyMs,
    origin: 'remote',
    outputFile: 'out.wav',
    input: { kind: 'tts', options: { voiceId: VOICE.toUpperCase() } as never, characters: 10, voice: {} as never },
    result: { durationSeconds: seconds, voice: { name: 'v', engine: 'espeak-ng', languageCode: 'en-US' } } as never,
    ...rest,
  } as JobRecord;
}

describe('routing by measured speed', () => {
  it('the meter: processing time over audio duration, a rolling median per engine and model, not streamed or failed jobs', () => {
    assert.deepEqual(measurementOf(finished({ seconds: 4, busyMs: 1_000 })), {
      kind: 'tts',
      engine: 'espeak-ng',
      model: VOICE,
      realTimeFactor: 0.25,
    });
    const stt = finished({
      seconds: 10,
      busyMs: 5_000,
      kind: 'stt',
      result: { durationSeconds: 10, model: 'ggml-tiny.bin' } as never,
    });
    assert.deepEqual(measurementOf(stt), {
      kind: 'stt',
      engine: 'whisper',
      model: 'ggml-tiny.bin',
      realTimeFactor: 0.5,
    });
    assert.equal(measurementOf(finished({ seconds: 4, busyMs: 1_000, status: 'failed' })), undefined);
    assert.equal(measurementOf(finished({ seconds: 0, busyMs: 1_000 })), undefined);
    assert.equal(
      measurementOf(
        finished({
          seconds: 4,
          busyMs: 1_000,
          result: { durationSeconds: 4, live: true, voice: { engine: 'x' } } as never,
        }),
      ),
      undefined,
    );

    const jobs = new EventEmitter();
    const meter = new SpeedMeter(jobs as unknown as JobService);
    let told = 0;
    meter.onMeasured(() => told++);
    for (const busyMs of [1_000, 9_000, 2_000]) jobs.emit('change', finished({ seconds: 10, busyMs }));
    jobs.emit('change', finished({ seconds: 10, busyMs: 1_000, status: 'processing' }));
    const again = finished({ seconds: 10, busyMs: 2_000 });
    jobs.emit('change', again);
    jobs.emit('change', again);
    assert.equal(told, 4, 'a finished job told twice counts once');
    meter.ignore('warm-up');
    jobs.emit('change', { ...finished({ seconds: 10, busyMs: 60_000 }), id: 'warm-up' });
    assert.equal(told, 4, 'an ignored job is not measured');
    assert.deepEqual(
      meter.reports(),
      [{ kind: 'tts', engine: 'espeak-ng', model: VOICE, realTimeFactor: 0.2, samples: 4 }],
      'the median, not the mean',
    );
    for (let i = 0; i < SPEED_WINDOW; i++) jobs.emit('change', finished({ seconds: 10, busyMs: 30_000 }));
    assert.deepEqual(
      meter.reports().map((r) => [r.realTimeFactor, r.samples]),
      [[3, SPEED_WINDOW]],
      'old jobs leave the window',
    );
    meter.dispose();
    jobs.emit('change', finished({ seconds: 10, busyMs: 1 }));
    assert.equal(told, 4 + SPEED_WINDOW);
    assert.equal(median([3, 1, 2, 10]), 2.5);
  });

  it('speeds on the link: checked field by field, unknown to old parsers and never closing a link', () => {
    assert.deepEqual(parseSpeeds([{ ...espeak(0.5), extra: 1 }]), [espeak(0.5)]);
    for (const bad of [
      null,
      {},
      [espeak(0)],
      [espeak(-1)],
      [espeak(Number.NaN)],
      [{ ...espeak(1), kind: 'ocr' }],
      [{ ...espeak(1), samples: 0 }],
      [{ ...espeak(1), engine: '' }],
      [{ ...espeak(1), model: 'x\u0000' }],
      Array.from({ length: 201 }, () => espeak(1)),
    ]) {
      assert.equal(parseSpeeds(bad), undefined, JSON.stringify(bad)?.slice(0, 80));
    }
    const hello = parseDeviceMessage(
      JSON.stringify({ type: 'hello', protocol: 1, capabilities: caps, activeJobs: [], speeds: [espeak(0.5)] }),
    );
    assert.equal(hello?.type, 'hello');
    assert.equal(
      parseDeviceMessage(JSON.stringify({ type: 'heartbeat', speeds: 'garbage' }))?.type,
      'heartbeat',
      'the session ignores a bad report',
    );
  });

  it("the estimate: a voice's own figure, else its engine's, else any TTS figure; STT by the most used model", () => {
    const speeds = [
      espeak(0.1),
      espeak(0.3, 'c0000000-0000-4000-8000-000000000000'),
      { ...espeak(0.9, PIPER_VOICE), engine: 'piper' },
      whisper(0.8, 2),
      whisper(0.4, 7, 'ggml-tiny.bin'),
    ];
    const engines = voiceEngines([speeds, [{ ...espeak(1, 'd0000000-0000-4000-8000-000000000000'), engine: 'piper' }]]);
    assert.equal(realTimeFactorFor(speeds, tts(100), engines), 0.1);
    assert.equal(
      realTimeFactorFor(speeds, tts(100, 'd0000000-0000-4000-8000-000000000000'), engines),
      0.9,
      'another device says this voice is piper',
    );
    assert.equal(
      realTimeFactorFor(speeds, tts(100, 'e0000000-0000-4000-8000-000000000000'), engines),
      0.3,
      'unknown voice: the median of all',
    );
    assert.equal(realTimeFactorFor(speeds, { kind: 'stt', seconds: 10 }, engines), 0.4);
    assert.equal(realTimeFactorFor([whisper(1)], tts(100), engines), undefined);

    assert.equal(mediaSeconds(tts(150)), 150 / TTS_CHARACTERS_PER_SECOND);
    assert.deepEqual(workOf({ kind: 'stt', request: { options: {} }, input_bytes: 320_000, characters: 0 }), {
      kind: 'stt',
      seconds: 10,
    });
    assert.deepEqual(
      workOf({ kind: 'tts', request: { voiceId: VOICE.toUpperCase() }, input_bytes: 0, characters: 42 }),
      tts(42),
    );

    const ahead = [
      { work: tts(300), progress: 50 },
      { work: { kind: 'stt' as const, seconds: 20 }, progress: 0 },
    ];
    // 20 s of speech at 0.1, half done = 1 s; 20 s of audio at 0.4 = 8 s.
    assert.equal(busySeconds(speeds, ahead, engines), 9);
    assert.equal(estimatedFinish(speeds, ahead, tts(150), engines), 10);
    assert.equal(busySeconds([espeak(0.1)], ahead, engines), undefined, 'an unmeasured kind ahead');
    assert.equal(
      estimatedFinish([espeak(0.1)], ahead, tts(150), engines),
      1 + 20 * 0.1 + 1,
      "counted at this job's factor",
    );
    assert.equal(estimatedFinish([], [], tts(150), engines), undefined);
  });

  it('pickDevice: the earliest estimated finish, so a long job waits for the fast device and a short one takes the slow one', () => {
    const free = (id: string, rtf: number, ahead: Candidate['ahead'] = []): Candidate => ({
      device: device(id),
      active: ahead.length,
      ahead,
      speeds: [espeak(rtf)],
    });
    const long = tts(3_000); // 200 s of speech
    const short = tts(30); // 2 s
    assert.equal(pickDevice([free('slow', 1), free('fast', 0.05)], needTts, routing, new Set(), long)?.id, 'fast');
    // The fast device has two long jobs ahead: 20 s of work; the long job would take the slow one 200 s, the short one 2 s.
    const queued = [
      { work: long, progress: 0 },
      { work: long, progress: 0 },
    ];
    assert.equal(
      pickDevice([free('slow', 1), free('fast', 0.05, queued)], needTts, routing, new Set(), long)?.id,
      'fast',
    );
    assert.equal(
      pickDevice([free('slow', 1), free('fast', 0.05, queued)], needTts, routing, new Set(), short)?.id,
      'slow',
    );
    // One device never measured: the old rule (fewest jobs ahead) decides, whatever the other measured.
    const unmeasured: Candidate = {
      device: device('unmeasured'),
      active: 1,
      ahead: [{ work: long, progress: 0 }],
      speeds: [],
    };
    assert.equal(
      pickDevice([unmeasured, free('fast', 0.05, queued)], needTts, routing, new Set(), short)?.id,
      'unmeasured',
    );
    assert.equal(
      pickDevice([free('slow', 1), free('fast', 0.05, queued)], needTts, routing)?.id,
      'slow',
      'no work given: fewest jobs',
    );
    // Excluded and unable devices are never picked, however fast.
    assert.equal(
      pickDevice([free('slow', 1), free('fast', 0.05)], needTts, routing, new Set(['fast']), long)?.id,
      'slow',
    );
    // French on a device whose only model is English-only (auto would run there, as English).
    const needStt = (c: DeviceCapabilities) => canRunStt(c, { language: 'fr' }, false);
    assert.equal(pickDevice([free('fast', 0.05)], needStt, routing, new Set(), long), undefined);
    // Equal estimates share the work.
    const seen = new Set<string>();
    for (let i = 0; i < 64 && seen.size < 2; i++)
      seen.add(pickDevice([free('a', 0.2), free('b', 0.2)], needTts, routing, new Set(), long)!.id);
    assert.deepEqual([...seen].sort(), ['a', 'b']);
  });
});
