import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import OpenAI from 'openai';
import { request, tempDir, useTestServer } from '../helpers/server';
import { SYNTHETIC_PARAKEET_NAME, syntheticParakeetModel } from '../helpers/parakeet-model';
import { parseSrt, parseVtt } from '../helpers/subtitles';
import { testModel } from '../helpers/test-models';

const MODEL_FILE = 'ggml-synthetic-random.bin';

async function installWhisper(dataDir: string): Promise<void> {
  await mkdir(path.join(dataDir, 'models', 'whisper'), { recursive: true });
  await mkdir(path.join(dataDir, 'models', 'vad'), { recursive: true });
  await symlink(testModel('whisper', MODEL_FILE), path.join(dataDir, 'models', 'whisper', MODEL_FILE));
  await copyFile(
    testModel('vad/ggml-silero-v6.2.0.bin'),
    path.join(dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'),
  );
}

const jfk = () => createReadStream(testModel('audio/jfk.wav'));

// The test model has random weights: its words mean nothing, so these tests check shapes and times, not text.
describe('POST /audio/transcriptions and /audio/translations through the openai SDK', () => {
  const t = useTestServer();
  let client: OpenAI;
  let scratch: string;
  before(async () => {
    await installWhisper(t.dataDir);
    client = new OpenAI({ baseURL: t.base, apiKey: 'unused', maxRetries: 0 });
    scratch = await tempDir();
  });
  after(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('answers json with the text, as a named Local API job', async () => {
    const response = await client.audio.transcriptions
      .create({ file: jfk(), model: 'whisper-1', language: 'en' })
      .withResponse();
    assert.equal(typeof response.data.text, 'string');
    const job = (await request(`${t.base}/jobs/${response.response.headers.get('x-speech-studio-job-id')}`)).json();
    assert.equal(job.status, 'succeeded');
    assert.equal(job.name, 'OpenAI transcription: jfk.wav');
    assert.equal(job.result.model, MODEL_FILE);
  });

  it('answers text, srt and vtt as text', async () => {
    const text = await client.audio.transcriptions.create({ file: jfk(), model: 'whisper-1', response_format: 'text' });
    assert.equal(typeof text, 'string');
    assert.ok(text.endsWith('\n'));
    const srt = await client.audio.transcriptions.create({ file: jfk(), model: 'whisper-1', response_format: 'srt' });
    const cues = parseSrt(srt);
    assert.ok(
      cues.every((cue) => cue.end <= 11.1 && cue.start < cue.end),
      srt,
    );
    const vtt = await client.audio.transcriptions.create({ file: jfk(), model: 'whisper-1', response_format: 'vtt' });
    assert.ok(vtt.startsWith('WEBVTT'));
    parseVtt(vtt);
  });

  it("answers verbose_json with task, language, duration and segments; words only when asked, timed by whisper's tokens", async () => {
    const plain = await client.audio.transcriptions.create({
      file: jfk(),
      model: 'whisper-1',
      language: 'en',
      response_format: 'verbose_json',
    });
    assert.equal((plain as any).task, 'transcribe');
    assert.equal(plain.language, 'english');
    assert.ok(Math.abs(plain.duration - 11) < 0.6, `duration ${plain.duration}`);
    assert.ok(Array.isArray(plain.segments));
    assert.equal(plain.words, undefined);
    for (const segment of plain.segments ?? [])
      assert.ok(segment.start < segment.end && segment.end <= plain.duration + 0.01);

    const answer = await client.audio.transcriptions
      .create({
        file: jfk(),
        model: 'whisper-1',
        language: 'en',
        response_format: 'verbose_json',
        timestamp_granularities: ['word', 'segment'],
      })
      .withResponse();
    const withWords = answer.data;
    assert.ok(Array.isArray(withWords.words) && Array.isArray(withWords.segments));
    // whisper times each word by its tokens: the header and `timing` say what the native transcript says.
    const native = (
      await request(
        `${t.base}/jobs/${answer.response.headers.get('x-speech-studio-job-id')}/transcript?format=json-full`,
      )
    ).json();
    assert.equal(native.wordTiming, 'recognizer');
    assert.equal(answer.response.headers.get('x-speech-studio-word-times'), 'recognizer');
    assert.deepEqual((withWords as any).timing, { segments: 'recognizer', words: 'recognizer' });
    let previous = 0;
    for (const word of withWords.words ?? []) {
      assert.equal(typeof word.word, 'string');
      assert.ok(word.start >= previous - 0.001 && word.end >= word.start);
      previous = word.end;
    }
    const wordsOnly = await client.audio.transcriptions.create({
      file: jfk(),
      model: 'whisper-1',
      response_format: 'verbose_json',
      timestamp_granularities: ['word'],
    });
    assert.ok(Array.isArray(wordsOnly.words));
    assert.equal(wordsOnly.segments, undefined);
  });

  it('streams transcript.text.delta events as segments are recognized, then transcript.text.done', async () => {
    const stream = await client.audio.transcriptions.create({
      file: jfk(),
      model: 'whisper-1',
      language: 'en',
      stream: true,
    });
    const events = [];
    for await (const event of stream) events.push(event);
    const last = events.at(-1);
    assert.equal(last?.type, 'transcript.text.done');
    const deltas = events.slice(0, -1);
    assert.ok(deltas.every((event) => event.type === 'transcript.text.delta'));
    const joined = deltas.map((event) => (event as { delta: string }).delta).join('');
    if (last?.type === 'transcript.text.done') {
      assert.equal(joined.replace(/\s+/g, ' ').trim(), last.text.replace(/\s+/g, ' ').trim());
    }
  });

  it('hands prompt and temperature to whisper (the job result records what whisper was given)', async () => {
    const prompted = await client.audio.transcriptions
      .create({
        file: jfk(),
        model: 'whisper-1',
        language: 'en',
        response_format: 'text',
        prompt: 'Kennedy, Americans, inaugural address, 1961.',
        temperature: 0.2,
      })
      .withResponse();
    const job = (await request(`${t.base}/jobs/${prompted.response.headers.get('x-speech-studio-job-id')}`)).json();
    assert.deepEqual(job.result.whisper, { prompt: true, task: 'transcribe', temperature: 0.2 });
    const plain = await client.audio.transcriptions
      .create({ file: jfk(), model: 'whisper-1', language: 'en' })
      .withResponse();
    const plainJob = (await request(`${t.base}/jobs/${plain.response.headers.get('x-speech-studio-job-id')}`)).json();
    assert.equal(plainJob.result.whisper, undefined);
  });

  it('accepts OpenAI fields whisper.cpp has no use for and names them in X-Speech-Studio-Ignored', async () => {
    const response = await client.audio.transcriptions
      .create({ file: jfk(), model: 'whisper-1', include: ['logprobs'], chunking_strategy: 'auto' })
      .withResponse();
    assert.equal(typeof response.data.text, 'string');
    assert.equal(response.response.headers.get('x-speech-studio-ignored'), 'include[]; chunking_strategy');
  });

  it("translates with whisper's translate task", async () => {
    const translated: any = await client.audio.translations.create({
      file: jfk(),
      model: 'whisper-1',
      response_format: 'verbose_json',
    });
    assert.equal(translated.task, 'translate');
    assert.equal(translated.language, 'english');
    assert.ok(Math.abs(translated.duration - 11) < 0.6);
    const plain = await client.audio.translations.create({ file: jfk(), model: 'whisper-1' });
    assert.equal(typeof plain.text, 'string');
  });

  it('lists the installed whisper model, whisper-1 and the TTS engines in GET /models', async () => {
    const ids = [];
    for await (const model of client.models.list()) ids.push(model.id);
    for (const id of [MODEL_FILE, 'whisper-1', 'espeak-ng', 'flite', 'tts-1'])
      assert.ok(ids.includes(id), `${id} in ${ids.join(',')}`);
    const one = await client.models.retrieve(MODEL_FILE);
    assert.equal(one.owned_by, 'whisper.cpp');
    await assert.rejects(client.models.retrieve('gpt-5'), OpenAI.NotFoundError);
  });

  it('answers a file that is not media, a missing file part, an unknown model or format with 422, never a 500', async () => {
    const notMedia = path.join(scratch, 'notes.wav');
    await writeFile(notMedia, 'these are words, not audio '.repeat(100));
    await assert.rejects(
      client.audio.transcriptions.create({ file: createReadStream(notMedia), model: 'whisper-1' }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.UnprocessableEntityError, String(error));
        assert.equal(error.param, 'file');
        assert.match(error.message, /not a media file/);
        return true;
      },
    );
    const form = new FormData();
    form.set('model', 'whisper-1');
    const missing = await fetch(`${t.base}/audio/transcriptions`, { method: 'POST', body: form });
    assert.equal(missing.status, 422);
    const body: any = await missing.json();
    assert.equal(body.error.param, 'file');
    assert.equal(body.error.code, 'INVALID_REQUEST');
    await assert.rejects(
      client.audio.transcriptions.create({ file: jfk(), model: 'nova-3' }),
      (e: any) => e.status === 422 && e.param === 'model',
    );
    // diarized_json is served (test/openai/diarized.test.ts), with the diarization models: without them, 409.
    await assert.rejects(
      client.audio.transcriptions.create({
        file: jfk(),
        model: 'whisper-1',
        response_format: 'diarized_json' as 'json',
      }),
      (e: any) => e.status === 409 && e.code === 'MODEL_NOT_INSTALLED',
    );
  });
});

describe("choosing the Parakeet model through the openai SDK's model field", () => {
  const t = useTestServer();
  let client: OpenAI;
  before(async () => {
    await installWhisper(t.dataDir);
    await mkdir(path.join(t.dataDir, 'models', 'parakeet'));
    await symlink(await syntheticParakeetModel(), path.join(t.dataDir, 'models', 'parakeet', SYNTHETIC_PARAKEET_NAME));
    client = new OpenAI({ baseURL: t.base, apiKey: 'unused', maxRetries: 0 });
  });

  const jobOf = async (id: string | null): Promise<any> => (await request(`${t.base}/jobs/${id}`)).json();

  it('runs a job on the Parakeet model named by its file name, with segment times; whisper-1 stays the default', async () => {
    const response = await client.audio.transcriptions
      .create({
        file: jfk(),
        model: SYNTHETIC_PARAKEET_NAME,
        language: 'en',
        response_format: 'verbose_json',
        timestamp_granularities: ['word', 'segment'],
      })
      .withResponse();
    const job = await jobOf(response.response.headers.get('x-speech-studio-job-id'));
    assert.equal(job.backend, `parakeet (${SYNTHETIC_PARAKEET_NAME})`);
    assert.equal(job.result.model, SYNTHETIC_PARAKEET_NAME);
    const verbose: any = response.data;
    assert.ok(verbose.segments.length > 0 && verbose.words.length > 0, 'the random model says something, with times');
    for (const word of verbose.words) assert.ok(word.start <= word.end && word.end <= verbose.duration + 0.01);
    // Parakeet times each chunk, and its words' times are estimated within it: the answer says so.
    const native = (await request(`${t.base}/jobs/${job.id}/transcript?format=json-full`)).json();
    assert.equal(native.wordTiming, 'estimated');
    assert.equal(response.response.headers.get('x-speech-studio-word-times'), 'estimated');
    assert.equal(verbose.timing.words, 'estimated');
    assert.match(verbose.timing.note, /shared out of each span/);
    // For auto, whisper-1 means the default model; the installed whisper model is English-only (it cannot
    // detect a language), so Parakeet, which recognizes any of its languages, takes an auto request.
    const auto = await client.audio.transcriptions.create({ file: jfk(), model: 'whisper-1' }).withResponse();
    assert.equal(
      (await jobOf(auto.response.headers.get('x-speech-studio-job-id'))).backend,
      `parakeet (${SYNTHETIC_PARAKEET_NAME})`,
    );
  });

  it('streams a Parakeet transcription chunk by chunk: deltas, then the whole text', async () => {
    const stream = await client.audio.transcriptions.create({
      file: jfk(),
      model: SYNTHETIC_PARAKEET_NAME,
      language: 'en',
      stream: true,
    });
    const events = [];
    for await (const event of stream) events.push(event);
    const last = events.at(-1);
    assert.equal(last?.type, 'transcript.text.done');
    const deltas = events.slice(0, -1);
    assert.ok(
      deltas.length > 0 && deltas.every((event) => event.type === 'transcript.text.delta'),
      'live pieces arrive before the end',
    );
    if (last?.type === 'transcript.text.done') {
      const joined = deltas.map((event) => (event as { delta: string }).delta).join('');
      assert.equal(joined.replace(/\s+/g, ' ').trim(), last.text.replace(/\s+/g, ' ').trim());
    }
  });

  it('lists the Parakeet model with its languages in GET /models', async () => {
    const one: any = await client.models.retrieve(SYNTHETIC_PARAKEET_NAME);
    assert.equal(one.owned_by, 'parakeet');
    assert.ok(one.languages.includes('de') && one.languages.length === 25);
    const capabilities = (await request(`${t.base}/capabilities`)).json();
    assert.deepEqual(
      capabilities.models.sttModels.map((m: any) => [m.name, m.engine]).sort(),
      [
        [SYNTHETIC_PARAKEET_NAME, 'parakeet'],
        [MODEL_FILE, 'whisper.cpp'],
      ].sort(),
    );
  });

  it('refuses with 422 naming the field what the named Parakeet model cannot honour: prompt, translate, temperature, language', async () => {
    const refused =
      (param: string) =>
      (error: unknown): boolean => {
        assert.ok(error instanceof OpenAI.UnprocessableEntityError, String(error));
        assert.equal(error.param, param);
        assert.match(error.message, /Parakeet model/);
        return true;
      };
    await assert.rejects(
      client.audio.transcriptions.create({ file: jfk(), model: SYNTHETIC_PARAKEET_NAME, prompt: 'Kennedy' }),
      refused('prompt'),
    );
    await assert.rejects(
      client.audio.transcriptions.create({ file: jfk(), model: SYNTHETIC_PARAKEET_NAME, temperature: 0.3 }),
      refused('temperature'),
    );
    await assert.rejects(
      client.audio.translations.create({ file: jfk(), model: SYNTHETIC_PARAKEET_NAME }),
      refused('translate'),
    );
    await assert.rejects(
      client.audio.transcriptions.create({ file: jfk(), model: SYNTHETIC_PARAKEET_NAME, language: 'ja' }),
      refused('language'),
    );
  });
});

describe('POST /audio/transcriptions without a whisper model', () => {
  const t = useTestServer();

  it('raises ConflictError with MODEL_NOT_INSTALLED', async () => {
    const client = new OpenAI({ baseURL: t.base, apiKey: 'unused', maxRetries: 0 });
    await assert.rejects(
      client.audio.transcriptions.create({
        file: new File([await readFile(testModel('audio/jfk.wav'))], 'jfk.wav'),
        model: 'whisper-1',
      }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.ConflictError);
        assert.equal(error.code, 'MODEL_NOT_INSTALLED');
        return true;
      },
    );
  });
});
