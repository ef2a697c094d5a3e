import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LiveWindowResult } from '../../src/engine-api/protocol';
import type { LiveLook, LiveRecognition } from '../../src/jobs/live-recognition';
import { LiveSession, type ServerEvent } from '../../src/realtime/live-session';

const RATE = 16_000;
const CHUNK = 0.1 * RATE;

/** A VAD for the test: speech is wherever the samples are not zero (from the look's `speechFrom` on). */
function nonZeroRanges(pcm: Int16Array, look: LiveLook): Array<{ start: number; end: number }> {
  const ranges: Array<{ start: number; end: number }> = [];
  let open: number | null = null;
  for (let i = Math.round((look.speechFrom ?? 0) * RATE); i <= pcm.length; i += 1) {
    const loud = i < pcm.length && pcm[i] !== 0;
    if (loud && open === null) open = i;
    if (!loud && open !== null) {
      ranges.push({ start: open / RATE, end: i / RATE });
      open = null;
    }
  }
  return ranges;
}

async function settle(): Promise<void> {
  for (let j = 0; j < 20; j += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Streams `speechSeconds` of speech and then silence in 100 ms chunks; what happened, chunk by chunk. */
async function stream(speechSeconds: number, silenceChunks: number) {
  const events: Array<{ event: ServerEvent; silenceSent: number }> = [];
  const looks: Array<{ look: LiveLook; silenceSent: number }> = [];
  let silenceSent = 0;
  const recognition: Pick<LiveRecognition, 'look'> = {
    look: async (_files, plan): Promise<LiveWindowResult> => {
      const { pcm, look } = plan({ waiting: 0 });
      looks.push({ look, silenceSent });
      return {
        durationSeconds: pcm.length / RATE,
        speech: nonZeroRanges(pcm, look),
        text: 'hello there',
        words: [],
        language: 'en',
      };
    },
  };
  const live = new LiveSession({
    send: (event) => events.push({ event, silenceSent }),
    recognition,
    files: { dir: '/nonexistent', touch: () => undefined, release: async () => undefined },
    resolveModel: async () => '/models/whisper/model.bin',
    form: 'ga',
  });
  await live.open();
  await live.receive(
    JSON.stringify({
      type: 'session.update',
      session: {
        type: 'transcription',
        audio: {
          input: {
            format: { type: 'audio/pcm', rate: 16000 },
            turn_detection: { type: 'server_vad', silence_duration_ms: 500 },
          },
        },
      },
    }),
  );
  const append = (value: number) =>
    live.receive(
      JSON.stringify({
        type: 'input_audio_buffer.append',
        audio: Buffer.from(new Int16Array(CHUNK).fill(value).buffer).toString('base64'),
      }),
    );
  for (let i = 0; i < Math.round(speechSeconds * 10); i += 1) {
    await append(1000);
    await settle();
  }
  for (let i = 0; i < silenceChunks; i += 1) {
    silenceSent += 1;
    await append(0);
    await settle();
  }
  await live.close();
  return { events, looks };
}

describe('LiveSession ends a turn when its silence has passed', () => {
  it('sends speech_stopped with the chunk that completes the configured silence, not at the next look interval', async () => {
    // 1.3 s of speech: looks every 0.32 s of audio fall at 0.4, 0.8, 1.2, 1.6, 2.0 s; the silence ends at 1.8 s.
    const { events } = await stream(1.3, 12);
    const stopped = events.find((e) => e.event.type === 'input_audio_buffer.speech_stopped');
    assert.ok(stopped, 'speech_stopped was sent');
    assert.equal(stopped.event.audio_end_ms, 1300 + 100, 'the turn ends where the speech did, with its tail');
    assert.equal(stopped.silenceSent, 5, 'sent once 500 ms of silence had arrived');
    const completed = events.find((e) => e.event.type === 'conversation.item.input_audio_transcription.completed');
    assert.ok(completed && completed.silenceSent === 5, 'the final decode ran at once');
  });

  it('decodes no partial text in the look that ends the turn, so the final decode is not held back', async () => {
    // 1.9 s of speech: a partial decode is due again at the look at 2.4 s, the one that finds the silence.
    const { looks, events } = await stream(1.9, 10);
    const decodes = looks.filter((l) => l.look.decode && l.look.preview);
    assert.ok(decodes.length >= 1, 'partial decodes while speaking');
    assert.deepEqual(
      decodes.filter((l) => l.silenceSent >= 3).map((l) => l.silenceSent),
      [],
      'no partial decode once the speaker has gone quiet',
    );
    const stopped = events.find((e) => e.event.type === 'input_audio_buffer.speech_stopped');
    assert.equal(stopped?.silenceSent, 5);
  });
});

describe('LiveSession bounds the audio waiting for the engine', () => {
  it('refuses more audio once 5 minutes of committed utterances wait for their decode, and takes it again after', async () => {
    const events: ServerEvent[] = [];
    const finals: Array<() => void> = [];
    const recognition: Pick<LiveRecognition, 'look'> = {
      look: (_files, plan) => {
        const { pcm } = plan({ waiting: 0 });
        const result: LiveWindowResult = {
          durationSeconds: pcm.length / RATE,
          speech: [],
          text: 'done',
          words: [],
          language: 'en',
        };
        // The engine is busy: each decode ends only when the test says so.
        return new Promise((resolve) => finals.push(() => resolve(result)));
      },
    };
    const live = new LiveSession({
      send: (event) => events.push(event),
      recognition,
      files: { dir: '/nonexistent', touch: () => undefined, release: async () => undefined },
      resolveModel: async () => '/models/whisper/model.bin',
      form: 'ga',
    });
    await live.open();
    await live.receive(
      JSON.stringify({
        type: 'session.update',
        session: {
          type: 'transcription',
          audio: { input: { format: { type: 'audio/pcm', rate: 16000 }, turn_detection: null } },
        },
      }),
    );
    const minute = JSON.stringify({
      type: 'input_audio_buffer.append',
      audio: Buffer.alloc(2 * 60 * RATE, 1).toString('base64'),
    });
    const full = () =>
      events.filter((e) => (e.error as { code?: string } | undefined)?.code === 'input_audio_buffer_full');
    for (let i = 0; i < 5; i += 1) {
      await live.receive(minute);
      await live.receive(JSON.stringify({ type: 'input_audio_buffer.commit' }));
      await settle();
    }
    assert.equal(full().length, 0, 'five minutes wait');
    await live.receive(minute);
    assert.equal(full().length, 1, 'a sixth minute is refused while the five wait');
    finals.shift()!();
    await settle();
    await live.receive(minute);
    assert.equal(full().length, 1, 'taken again once one decode ended');
    await live.close();
  });
});
