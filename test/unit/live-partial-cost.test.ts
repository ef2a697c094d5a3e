/**
 * What bounds the cost of live partial text (src/realtime/partial-text.ts, speech-track.ts, the engine's
 * capTokens): the decode window is trimmed at agreed words, decodes wait for a second of new audio, a decode's
 * tokens are capped by its audio's length, and turn detection's VAD looks only at new audio plus an overlap.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LiveWindowResult, LiveWord } from '../../src/engine-api/protocol';
import { capTokens } from '../../src/engine/stt/run-live-window';
import type { LiveLook, LiveRecognition } from '../../src/jobs/live-recognition';
import { LiveSession, type ServerEvent } from '../../src/realtime/live-session';
import { DECODE_EVERY, PartialText, PROMPT_CHARS, tokenCap, WINDOW_LIMIT } from '../../src/realtime/partial-text';
import { SpeechTrack } from '../../src/realtime/speech-track';

const RATE = 16_000;
/** Words one after another, 0.4 s each, from `at` seconds of the window. */
const words = (texts: string[], at = 0): LiveWord[] =>
  texts.map((text, i) => ({ text, start: at + i * 0.4, end: at + i * 0.4 + 0.35 }));

describe('PartialText: the partial decode window', () => {
  it('asks for a decode only once a second of new audio came', () => {
    const partial = new PartialText(1000);
    assert.equal(partial.due(1000 + DECODE_EVERY - 1), false);
    assert.equal(partial.due(1000 + DECODE_EVERY), true);
    partial.update(1000, 1000 + DECODE_EVERY, words(['a']));
    assert.equal(partial.due(1000 + 2 * DECODE_EVERY - 1), false);
    assert.equal(partial.due(1000 + 2 * DECODE_EVERY), true);
  });

  it('trims the window after the last agreed word that ends a sentence, and hands the agreed words on as the prompt', () => {
    const partial = new PartialText(0);
    assert.deepEqual(partial.window(), { from: 0, prompt: '' });
    partial.update(0, 2 * RATE, words(['And', 'so.', 'My']));
    assert.deepEqual(partial.update(0, 3 * RATE, words(['And', 'so.', 'My', 'fellow'])), ['And', 'so.', 'My']);
    // "so." ends at 0.4 + 0.35 s: the next decode starts there; "My", agreed after it, still leads the hypothesis.
    assert.deepEqual(partial.window(), { from: 0.75 * RATE, prompt: 'And so.' });
    assert.deepEqual(partial.update(0.75 * RATE, 4 * RATE, words(['My', 'fellow', 'Americans.'])), ['fellow']);
    assert.equal(partial.window().from, 0.75 * RATE, 'no sentence ended among the words agreed since');
    assert.deepEqual(partial.update(0.75 * RATE, 5 * RATE, words(['My', 'fellow', 'Americans.', 'Ask'])), [
      'Americans.',
    ]);
    const from = 0.75 * RATE + (2 * 0.4 + 0.35) * RATE;
    assert.deepEqual(partial.window(), { from, prompt: 'And so. My fellow Americans.' });
    // The next decode covers only the audio after it; the agreed words lead the hypothesis, so the text only grows.
    assert.deepEqual(partial.update(from, 6 * RATE, words(['Ask', 'not'])), ['Ask']);
    assert.equal(partial.text, 'And so. My fellow Americans. Ask');
  });

  it('trims a window grown past the limit at the last agreed word even without a sentence end', () => {
    const partial = new PartialText(0);
    const long = Array.from({ length: 30 }, (_, i) => `w${i}`);
    partial.update(0, WINDOW_LIMIT, words(long.slice(0, 25)));
    partial.update(0, WINDOW_LIMIT, words(long.slice(0, 26)));
    assert.equal(partial.window().from, 0, 'not past the limit yet');
    partial.update(0, WINDOW_LIMIT + RATE, words(long.slice(0, 27)));
    // w0…w25 are agreed; w25 ends at 25 × 0.4 + 0.35 s.
    assert.equal(partial.window().from, Math.round((25 * 0.4 + 0.35) * RATE));
    assert.ok(partial.window().prompt.length <= PROMPT_CHARS);
    assert.ok(partial.window().prompt.endsWith('w24 w25'));
  });

  it('cannot trim before anything is agreed: the window stays at the utterance start', () => {
    const partial = new PartialText(500);
    partial.update(500, 500 + WINDOW_LIMIT * 2, words(['x', 'y']));
    partial.update(500, 500 + WINDOW_LIMIT * 2 + RATE, words(['z']));
    assert.equal(partial.window().from, 500);
  });
});

describe('the token cap', () => {
  it('allows 6 tokens a second of audio and 8 more', () => {
    assert.equal(tokenCap(0), 8);
    assert.equal(tokenCap(RATE), 14);
    assert.equal(tokenCap(10 * RATE), 68);
    assert.equal(tokenCap(RATE / 2), 11);
  });

  it('keeps the first maxTokens tokens of a decode and the text they make, and leaves a shorter decode alone', () => {
    const pieces = Array.from({ length: 448 }, (_, i) => ({ text: ` t${i}`, startMs: i * 10, endMs: i * 10 + 10 }));
    const runaway = { language: 'en', pieces, text: pieces.map((p) => p.text).join(''), timing: 'tokens' as const };
    const capped = capTokens(runaway, tokenCap(RATE));
    assert.equal(capped.pieces.length, 14);
    assert.equal(capped.text, ' t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13');
    assert.equal(capTokens(runaway, 448), runaway);
    assert.equal(capTokens(runaway, undefined), runaway);
  });
});

describe('SpeechTrack', () => {
  it('replaces what earlier looks said from the re-examined point on, joining a range cut there', () => {
    const track = new SpeechTrack();
    track.merge(0, [
      { start: 1000, end: 5000 },
      { start: 8000, end: 12_000 },
    ]);
    // A look from 10 000 on: the range running into it continues, a new one follows.
    track.merge(10_000, [
      { start: 10_100, end: 14_000 },
      { start: 20_000, end: 22_000 },
    ]);
    assert.deepEqual(track.ranges, [
      { start: 1000, end: 5000 },
      { start: 8000, end: 14_000 },
      { start: 20_000, end: 22_000 },
    ]);
    // A later look that hears the speech end sooner wins over the earlier one.
    track.merge(21_000, []);
    assert.deepEqual(track.ranges, [
      { start: 1000, end: 5000 },
      { start: 8000, end: 14_000 },
      { start: 20_000, end: 21_000 },
    ]);
    track.dropBefore(9000);
    assert.deepEqual(track.ranges, [
      { start: 9000, end: 14_000 },
      { start: 20_000, end: 21_000 },
    ]);
    track.clear();
    assert.deepEqual(track.ranges, []);
  });
});

describe('LiveSession looks at bounded audio', () => {
  it('runs VAD over the new audio and half a second before it, decodes from the trim point with the token cap, and at most once a second', async () => {
    const plans: Array<{ samples: number; look: LiveLook; waiting: number }> = [];
    const events: ServerEvent[] = [];
    const recognition: Pick<LiveRecognition, 'look'> = {
      look: async (_files, plan): Promise<LiveWindowResult> => {
        const { pcm, look } = plan({ waiting: 0 });
        plans.push({ samples: pcm.length, look, waiting: 0 });
        const seconds = pcm.length / RATE;
        // Speech all along; the same words each time, so partial decodes agree.
        return {
          durationSeconds: seconds,
          speech: [{ start: 0, end: seconds }],
          text: 'w',
          words: look.decode ? words(['one', 'two.', 'three'], look.decodeFrom) : [],
          language: 'en',
        };
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
          audio: { input: { format: { type: 'audio/pcm', rate: 16000 }, turn_detection: { type: 'server_vad' } } },
        },
      }),
    );
    const chunk = JSON.stringify({
      type: 'input_audio_buffer.append',
      audio: Buffer.alloc(2 * 0.32 * RATE).toString('base64'),
    });
    for (let i = 0; i < 40; i += 1) {
      await live.receive(chunk);
      for (let j = 0; j < 20; j += 1) await new Promise((resolve) => setImmediate(resolve));
    }
    await live.close();
    assert.ok(events.some((e) => e.type === 'input_audio_buffer.speech_started'));
    assert.ok(plans.length > 20, `${plans.length} looks`);
    const overlap = 0.5 * RATE;
    for (const { samples, look } of plans) {
      const vadSamples = samples - (look.speechFrom ?? 0) * RATE;
      assert.ok(vadSamples <= 0.32 * RATE + overlap + 1, `VAD over ${vadSamples} samples`);
      if (!look.decode) continue;
      const decodeSamples = samples - (look.decodeFrom ?? 0) * RATE;
      assert.equal(look.maxTokens, tokenCap(Math.round(decodeSamples)));
      assert.ok(look.preview);
    }
    const decodes = plans.filter((p) => p.look.decode);
    assert.ok(
      decodes.length >= 3 && decodes.length <= 40 * 0.32 + 1,
      `${decodes.length} partial decodes in 12.8 s of audio`,
    );
    // Agreed "two." ends a sentence: later decodes start after it, with the agreed words as the prompt.
    assert.ok(
      decodes.some((p) => p.look.prompt === 'one two.'),
      JSON.stringify(decodes.map((p) => p.look.prompt)),
    );
    const deltas = events
      .filter((e) => e.type === 'conversation.item.input_audio_transcription.delta')
      .map((e) => e.delta);
    assert.ok(deltas.join('').startsWith('one two. three'), JSON.stringify(deltas));
  });

  it('skips the partial decode while other looks wait for the engine, and still looks for turns', async () => {
    const looks: LiveLook[] = [];
    const recognition: Pick<LiveRecognition, 'look'> = {
      look: async (_files, plan): Promise<LiveWindowResult> => {
        const { pcm, look } = plan({ waiting: 3 });
        looks.push(look);
        return {
          durationSeconds: pcm.length / RATE,
          speech: [{ start: 0, end: pcm.length / RATE }],
          text: '',
          words: [],
          language: 'en',
        };
      },
    };
    const live = new LiveSession({
      send: () => undefined,
      recognition,
      files: { dir: '/nonexistent', touch: () => undefined, release: async () => undefined },
      resolveModel: async () => '/m.bin',
      form: 'ga',
    });
    await live.open();
    const chunk = JSON.stringify({
      type: 'input_audio_buffer.append',
      audio: Buffer.alloc(2 * 0.32 * 24_000).toString('base64'),
    });
    for (let i = 0; i < 15; i += 1) {
      await live.receive(chunk);
      for (let j = 0; j < 20; j += 1) await new Promise((resolve) => setImmediate(resolve));
    }
    await live.close();
    assert.ok(looks.length > 5);
    assert.ok(looks.every((look) => !look.decode));
  });
});
