import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import {
  isTerminal,
  postJson,
  request,
  startTestServer,
  tempDir,
  waitForJob,
  type TestServer,
  useTestServer,
} from '../helpers/server';
import { readSse } from '../helpers/sse';
import { probeAudio } from '../helpers/tts-audio';
import { englishVoiceId } from '../helpers/voices';

const SENTENCES = 'The quick brown fox jumps over the lazy dog. Speech Studio speaks every sentence as it comes. ';
/** Seconds of synthesis: the stream opens while the job still runs, even on a starved machine. */
const LONG_TEXT = SENTENCES.repeat(100);

const FORMATS = {
  mp3: { codec: 'mp3', contentType: 'audio/mpeg' },
  opus: { codec: 'opus', contentType: 'audio/ogg' },
  aac: { codec: 'aac', contentType: 'audio/aac' },
  flac: { codec: 'flac', contentType: 'audio/flac' },
  wav: { codec: 'pcm_s16le', contentType: 'audio/wav' },
} as const;

describe('POST /audio/speech through the openai SDK', () => {
  const t = useTestServer();
  let client: OpenAI;
  let scratch: string;
  before(async () => {
    client = new OpenAI({ baseURL: t.base, apiKey: 'unused', maxRetries: 0 });
    scratch = await tempDir();
  });
  after(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  for (const [format, expected] of Object.entries(FORMATS)) {
    it(`speaks ${format}: ffprobe reads ${expected.codec}, mono, the audio lasts`, async () => {
      const response = await client.audio.speech.create({
        model: 'tts-1',
        voice: 'alloy',
        input: 'Hello from the OpenAI door. Two sentences.',
        response_format: format as keyof typeof FORMATS,
      });
      assert.equal(response.headers.get('content-type'), expected.contentType);
      const file = path.join(scratch, `speech.${format}`);
      await writeFile(file, Buffer.from(await response.arrayBuffer()));
      const probed = await probeAudio(file);
      assert.equal(probed.codec, expected.codec);
      assert.equal(probed.channels, 1);
      assert.equal(probed.sampleRate, format === 'opus' ? 48_000 : 24_000); // Opus always decodes at 48 kHz
      assert.ok(probed.decodedSeconds > 1 && probed.decodedSeconds < 10, `${probed.decodedSeconds} s`);
    });
  }

  it('speaks pcm as raw 24 kHz 16-bit mono samples, the same speech as wav without its header', async () => {
    const input = 'Raw samples, please.';
    const pcm = Buffer.from(
      await (
        await client.audio.speech.create({ model: 'tts-1', voice: 'nova', input, response_format: 'pcm' })
      ).arrayBuffer(),
    );
    const wav = Buffer.from(
      await (
        await client.audio.speech.create({ model: 'tts-1', voice: 'nova', input, response_format: 'wav' })
      ).arrayBuffer(),
    );
    assert.equal(pcm.length % 2, 0);
    assert.ok(pcm.length > 24_000, `${pcm.length} bytes is less than half a second`);
    assert.equal(wav.subarray(0, 4).toString('latin1'), 'RIFF');
    assert.equal(wav.readUInt32LE(24), 24_000);
    assert.deepEqual(wav.subarray(44), pcm);
  });

  it('streams: the first audio bytes arrive while the job is still running, and the job is a named Local API job', async () => {
    const response = await client.audio.speech.create({
      model: 'tts-1',
      voice: 'echo',
      input: LONG_TEXT,
      response_format: 'mp3',
    });
    const jobId = response.headers.get('x-speech-studio-job-id');
    assert.ok(jobId);
    const reader = response.body!.getReader();
    const first = await reader.read();
    assert.ok(first.value && first.value.length > 0);
    const atFirstChunk = (await request(`${t.base}/jobs/${jobId}`)).json();
    assert.ok(!isTerminal(atFirstChunk), `the job had already ${atFirstChunk.status} when the first bytes came`);
    assert.match(atFirstChunk.name, /^OpenAI speech \(mp3\): The quick brown fox/);
    let bytes = first.value.length;
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      bytes += next.value.length;
    }
    const done = (await request(`${t.base}/jobs/${jobId}`)).json();
    assert.equal(done.status, 'succeeded');
    assert.equal(done.result.live, true);
    assert.equal(bytes, done.result.bytes, 'every byte of the output was streamed once');
  });

  it('streams mp3 that starts with a short sentence: chunks arrive before the job ends, and together they are the whole valid file', async () => {
    const response = await client.audio.speech.create({
      model: 'tts-1',
      voice: 'fable',
      input: `Hello there. ${LONG_TEXT}`,
      response_format: 'mp3',
    });
    const jobId = response.headers.get('x-speech-studio-job-id')!;
    const chunks: Buffer[] = [];
    let chunksBeforeEnd = 0;
    for await (const chunk of response.body!) {
      chunks.push(Buffer.from(chunk));
      if (!isTerminal((await request(`${t.base}/jobs/${jobId}`)).json())) chunksBeforeEnd = chunks.length;
    }
    assert.ok(chunksBeforeEnd >= 1, 'no audio arrived while the job was running');
    const done = (await request(`${t.base}/jobs/${jobId}`)).json();
    assert.equal(done.status, 'succeeded');
    const file = path.join(scratch, 'streamed.mp3');
    await writeFile(file, Buffer.concat(chunks));
    assert.equal(Buffer.concat(chunks).length, done.result.bytes, 'every byte of the output was streamed once');
    const probed = await probeAudio(file);
    assert.equal(probed.codec, 'mp3');
    assert.equal(probed.sampleRate, 24_000);
    assert.ok(
      probed.decodedSeconds > done.result.durationSeconds - 0.2,
      `${probed.decodedSeconds} s decoded of ${done.result.durationSeconds} s`,
    );
  });

  it('cancels the job when the client goes away mid-stream', async () => {
    const controller = new AbortController();
    const response = await client.audio.speech.create(
      { model: 'tts-1', voice: 'onyx', input: LONG_TEXT, response_format: 'mp3' },
      { signal: controller.signal },
    );
    const jobId = response.headers.get('x-speech-studio-job-id')!;
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    const job = await waitForJob(t.base, jobId, isTerminal, 20_000);
    assert.equal(job.status, 'cancelled');
  });

  it('sends speech.audio.delta events and a final speech.audio.done with stream_format sse', async () => {
    const response = await client.audio.speech.create({
      model: 'gpt-4o-mini-tts',
      voice: 'coral',
      input: 'Events carry the audio.',
      response_format: 'wav',
      stream_format: 'sse',
    });
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = [];
    for await (const event of readSse(response.body!)) events.push(JSON.parse(event.data));
    const deltas = events.filter((e) => e.type === 'speech.audio.delta');
    assert.ok(deltas.length >= 1);
    assert.equal(events.at(-1).type, 'speech.audio.done');
    assert.equal(typeof events.at(-1).usage.total_tokens, 'number');
    const audio = Buffer.concat(deltas.map((e) => Buffer.from(e.audio, 'base64')));
    const file = path.join(scratch, 'sse.wav');
    await writeFile(file, audio);
    assert.equal((await probeAudio(file)).codec, 'pcm_s16le');
  });

  it('maps OpenAI voice names to ready voices and also takes our voice ids and exact names', async () => {
    const jobOf = async (voice: string | { id: string }, model = 'tts-1') => {
      const response = await client.audio.speech.create({
        model,
        voice: voice,
        input: 'Which voice?',
        response_format: 'wav',
      });
      await response.arrayBuffer();
      return (await request(`${t.base}/jobs/${response.headers.get('x-speech-studio-job-id')}`)).json();
    };
    assert.equal((await jobOf('alloy')).result.voice.name, 'English (America) – Flite SLT');
    assert.equal((await jobOf('fable')).result.voice.name, 'English (Scotland) – Flite AWB');
    const espeak = await englishVoiceId(t.base);
    assert.equal((await jobOf(espeak)).backend, 'espeak-ng');
    assert.equal((await jobOf({ id: espeak })).backend, 'espeak-ng');
    assert.equal((await jobOf('english (america) – flite rms')).result.voice.name, 'English (America) – Flite RMS');
    assert.equal(
      (await jobOf('alloy', 'espeak-ng')).backend,
      'espeak-ng',
      "an engine as model picks that engine's voice",
    );
  });

  it('accepts what it cannot honour and says so: speed is clamped, instructions ignored', async () => {
    const response = await client.audio.speech.create({
      model: 'gpt-4o-mini-tts',
      voice: 'sage',
      input: 'Slowly.',
      speed: 0.25,
      instructions: 'Whisper it.',
      response_format: 'flac',
    });
    await response.arrayBuffer();
    assert.equal(response.headers.get('x-speech-studio-ignored'), 'speed 0.25 clamped to 0.5; instructions');
    const job = (await request(`${t.base}/jobs/${response.headers.get('x-speech-studio-job-id')}`)).json();
    assert.equal(job.result.speed.value, 0.5);
  });

  it("answers bad input with 422 in OpenAI's error shape, naming the parameter, never a 500", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ model: 'tts-1', voice: 'nobody-of-that-name', input: 'x' }, 'voice'],
      [{ model: 'tts-1', voice: 'alloy', input: 'x', response_format: 'ogg' }, 'response_format'],
      [{ model: 'tts-1', voice: 'alloy', input: '' }, 'input'],
      [{ model: 'tts-1', voice: 'alloy', input: '   ' }, 'input'],
      [{ model: 'tts-1', voice: 'alloy', input: 'x'.repeat(100_001) }, 'input'],
      [{ model: 'tts-1', voice: 'alloy', input: 'x', speed: 5 }, 'speed'],
      [{ model: 'dall-e-3', voice: 'alloy', input: 'x' }, 'model'],
      [{ voice: 'alloy', input: 'x' }, 'model'],
    ];
    for (const [body, param] of cases) {
      await assert.rejects(client.audio.speech.create(body as never), (error: unknown) => {
        assert.ok(
          error instanceof OpenAI.UnprocessableEntityError,
          `${JSON.stringify(body).slice(0, 80)}: ${String(error)}`,
        );
        assert.equal(error.status, 422);
        assert.equal(error.code, 'INVALID_REQUEST');
        assert.equal(error.param, param);
        assert.equal(error.type, 'invalid_request_error');
        // The message names the field as the client sent it, not as the core calls it (`text`).
        if (param === 'input') assert.match(error.message, /^422 input: /);
        return true;
      });
    }
    const raw = await postJson(`${t.base}/audio/speech`, { model: 'tts-1', voice: 'alloy' });
    assert.deepEqual(Object.keys(raw.json().error).sort(), ['code', 'message', 'param', 'type']);
  });
});

describe("POST /audio/speech: the SDK's typed errors for 401 and 429", () => {
  let t: TestServer;
  after(() => t?.dispose());

  it('raises AuthenticationError without the key and works with it', async () => {
    t = await startTestServer({ auth: true });
    const key = (await readFile(path.join(t.dataDir, 'api-key'), 'utf8')).trim();
    const wrong = new OpenAI({ baseURL: t.base, apiKey: 'ssk_local_wrong', maxRetries: 0 });
    await assert.rejects(
      wrong.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x' }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.AuthenticationError);
        assert.equal(error.code, 'INVALID_API_KEY');
        assert.equal(error.type, 'authentication_error');
        return true;
      },
    );
    await assert.rejects(wrong.models.list(), OpenAI.AuthenticationError);
    const right = new OpenAI({ baseURL: t.base, apiKey: key, maxRetries: 0 });
    const audio = await right.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Authorized.',
      response_format: 'wav',
    });
    assert.ok((await audio.arrayBuffer()).byteLength > 44);
    await t.dispose();
  });

  it('raises RateLimitError when the queue is full, with Retry-After', async () => {
    t = await startTestServer({ queueCapacity: 1 });
    const client = new OpenAI({ baseURL: t.base, apiKey: 'unused', maxRetries: 0 });
    const busy = (
      await postJson(`${t.base}/tts/jobs`, { voiceId: await englishVoiceId(t.base), text: LONG_TEXT })
    ).json();
    await assert.rejects(
      client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x' }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.RateLimitError);
        assert.equal(error.code, 'QUEUE_FULL');
        assert.equal(error.headers?.get('retry-after'), '5');
        return true;
      },
    );
    await request(`${t.base}/jobs/${busy.id}/cancel`, { method: 'POST' });
  });
});
