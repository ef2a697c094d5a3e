/**
 * SSML through the OpenAI door with the openai SDK, for each engine family the tests have: espeak-ng (real)
 * and sherpa-onnx VITS and Kokoro (random-weight stand-ins, whose front ends are real). Breaks are measured
 * in the returned samples; what an engine cannot honour shows in the job's result.ignoredOptions; malformed
 * markup is a 422 in OpenAI's error shape naming line and column.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import OpenAI, { APIError } from 'openai';
import { request, useTestServer, type TestServer } from '../helpers/server';
import { testModel } from '../helpers/test-models';

const RATE = 24_000;
/** Samples at or under this magnitude count as silence, for the level tests. */
const QUIET = 400;

/** The engine trims speech where it passes 100 before the loudness gain: the same level in the output. */
const trimLevel = (job: any): number => Math.ceil(100 * 10 ** ((job.result.loudness?.gainDb ?? 0) / 20));

const synthetic = (file: string): string => testModel(path.join('sherpa-synthetic', file));

async function handInstalled(
  t: TestServer,
  folder: string,
  voiceJson: Record<string, unknown>,
  files: Record<string, string>,
): Promise<string> {
  const dir = path.join(t.dataDir, 'models', 'tts', folder);
  await mkdir(dir, { recursive: true });
  for (const [name, source] of Object.entries(files)) await copyFile(source, path.join(dir, name));
  await writeFile(path.join(dir, 'voice.json'), JSON.stringify(voiceJson));
  const page = (
    await request(`${t.base}/voices?search=${encodeURIComponent(String(voiceJson.name))}&limit=100`)
  ).json();
  const voice = page.items.find((v: { name: string }) => v.name.includes(String(voiceJson.name)));
  assert.ok(voice && voice.availability === 'ready', `${String(voiceJson.name)} is not a ready voice`);
  return voice.name;
}

/** Runs of silence at least `minSeconds` long, in seconds, between the first and last audible sample. */
function innerSilences(samples: Int16Array, minSeconds: number, quiet: number): number[] {
  const runs: number[] = [];
  const first = samples.findIndex((s) => Math.abs(s) > quiet);
  let last = samples.length - 1;
  while (last > 0 && Math.abs(samples[last]) <= quiet) last--;
  let start = -1;
  for (let i = first; i <= last; i++) {
    if (Math.abs(samples[i]) <= quiet) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start >= minSeconds * RATE) runs.push((i - start) / RATE);
      start = -1;
    }
  }
  return runs;
}

/** The energy of the samples in decibels: the same speech at a gain g differs by 20·log10(g), whatever silence surrounds it. */
function energyDb(samples: Int16Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return 10 * Math.log10(sum);
}

interface Spoken {
  samples: Int16Array;
  job: any;
}

describe('SSML in POST /audio/speech through the openai SDK', () => {
  const t = useTestServer();
  let client: OpenAI;
  const voices: Record<string, { model: string; voice: string }> = {};
  before(async () => {
    client = new OpenAI({ baseURL: t.base, apiKey: 'unused', maxRetries: 0 });
    voices['espeak-ng'] = { model: 'espeak-ng', voice: 'alloy' };
    voices['sherpa-onnx VITS'] = {
      model: 'sherpa-onnx',
      voice: await handInstalled(
        t,
        'ssml-piper',
        {
          name: 'Ssml Piper',
          engine: 'vits',
          languageCode: 'en-US',
          files: { model: 'model.onnx', tokens: 'tokens.txt' },
        },
        { 'model.onnx': synthetic('vits-piper/model.onnx'), 'tokens.txt': synthetic('vits-piper/tokens.txt') },
      ),
    };
    voices['sherpa-onnx Kokoro'] = {
      model: 'sherpa-onnx',
      voice: await handInstalled(
        t,
        'ssml-kokoro',
        {
          name: 'Ssml Kokoro',
          engine: 'kokoro',
          languageCode: 'en-US',
          files: { model: 'model.onnx', voices: 'voices.bin', tokens: 'tokens.txt' },
        },
        {
          'model.onnx': synthetic('kokoro/model.onnx'),
          'voices.bin': synthetic('kokoro/voices.bin'),
          'tokens.txt': synthetic('kokoro/tokens.txt'),
        },
      ),
    };
    await mkdir(path.join(t.dataDir, 'audio'), { recursive: true });
    await writeFile(path.join(t.dataDir, 'audio', 'tone.wav'), toneWav(0.5));
    await writeFile(path.join(t.dataDir, 'audio', 'broken.wav'), 'not audio at all');
  });

  async function speak(family: string, input: string): Promise<Spoken> {
    const { model, voice } = voices[family];
    const response = await client.audio.speech.create({ model, voice, input, response_format: 'pcm' });
    const bytes = Buffer.from(await response.arrayBuffer());
    const samples = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
    const job = (await request(`${t.base}/jobs/${response.headers.get('x-speech-studio-job-id')}`)).json();
    assert.equal(job.status, 'succeeded', job.error);
    return { samples, job };
  }

  const EVERY_ELEMENT = `<?xml version="1.0"?>
<speak version="1.1" xml:lang="en-US">
  <p><s>Chapter <say-as interpret-as="ordinal">3</say-as>, on <say-as interpret-as="date" format="mdy">12/25/2024</say-as>
  at <say-as interpret-as="time">14:30</say-as>; call <say-as interpret-as="telephone">555-0123</say-as>.</s>
  <s><say-as interpret-as="characters">SSML</say-as> counts <say-as interpret-as="cardinal">1,234</say-as> words.</s></p>
  <p><prosody rate="slow" pitch="+10%" volume="loud">Slowly and loudly.</prosody>
  <emphasis level="strong">Really.</emphasis> <sub alias="World Wide Web">WWW</sub>.
  <phoneme alphabet="ipa" ph="təˈmɑːtəʊ">tomato</phoneme> <phoneme alphabet="x-sampa" ph="t@&quot;meIt@U">tomato</phoneme>
  <lang xml:lang="en-GB">Colour.</lang> <audio src="tone.wav">a tone</audio><mark name="end"/></p>
</speak>`;

  for (const family of ['espeak-ng', 'sherpa-onnx VITS', 'sherpa-onnx Kokoro']) {
    it(`${family}: speaks every element of the subset, and a break is that long in the audio (±20 ms)`, async () => {
      const all = await speak(family, EVERY_ELEMENT);
      assert.ok(all.samples.length > RATE * 2, `${all.samples.length / RATE} s`);
      const ignored = all.job.result.ignoredOptions;
      assert.equal(ignored['ssml audio'], undefined, 'the tone from the data folder was played');
      if (family === 'espeak-ng') {
        assert.equal(ignored['ssml phoneme'], undefined, 'espeak-ng speaks phonemes');
        assert.equal(ignored['ssml prosody pitch'], undefined, 'espeak-ng takes pitch');
      } else {
        assert.match(ignored['ssml phoneme'], /take text, not phonemes/);
        assert.match(ignored['ssml prosody pitch'], /no pitch control/);
      }
      for (const seconds of [0.3, 1.25]) {
        const { samples, job } = await speak(
          family,
          `<speak>Hello there.<break time="${seconds * 1000}ms"/>General Kenobi.</speak>`,
        );
        const quiet = trimLevel(job);
        const long = innerSilences(samples, 0.25, quiet).filter((run) => run > seconds - 0.1);
        assert.equal(long.length, 1, `silences: ${innerSilences(samples, 0.05, quiet).join(', ')}`);
        assert.ok(Math.abs(long[0] - seconds) <= 0.02, `a ${seconds} s break measured ${long[0]} s`);
      }
    });
  }

  it('espeak-ng: say-as and sub sound exactly like the words they stand for; phonemes change the word', async () => {
    const expanded = await speak(
      'espeak-ng',
      '<speak><say-as interpret-as="cardinal">42</say-as> at <sub alias="World Wide Web">WWW</sub></speak>',
    );
    const written = await speak('espeak-ng', '<speak>forty-two at World Wide Web</speak>');
    // espeak-ng carries filter state from one synthesis to the next, so the samples differ slightly: compare lengths.
    assert.ok(
      Math.abs(expanded.samples.length - written.samples.length) <= RATE * 0.01,
      `${expanded.samples.length} vs ${written.samples.length}`,
    );
    const phoneme = await speak('espeak-ng', '<speak><phoneme alphabet="ipa" ph="wɪn">Nguyen</phoneme></speak>');
    const plain = await speak('espeak-ng', '<speak>Nguyen</speak>');
    const win = await speak('espeak-ng', '<speak>win</speak>');
    assert.ok(
      Math.abs(phoneme.samples.length - win.samples.length) < Math.abs(plain.samples.length - win.samples.length),
      `phonemes ${phoneme.samples.length}, "win" ${win.samples.length}, "Nguyen" ${plain.samples.length}`,
    );
  });

  it('espeak-ng: prosody rate slows the speech and volume lowers it by its decibels', async () => {
    const normal = await speak('espeak-ng', '<speak>This sentence is spoken at one rate.</speak>');
    const slow = await speak(
      'espeak-ng',
      '<speak><prosody rate="50%">This sentence is spoken at one rate.</prosody></speak>',
    );
    assert.ok(slow.samples.length > normal.samples.length * 1.5, `${slow.samples.length} vs ${normal.samples.length}`);
    const both = await speak(
      'espeak-ng',
      '<speak>Hello world.<break time="1s"/><prosody volume="-12dB">Hello world.</prosody></speak>',
    );
    const gap = findGap(both.samples, 0.9);
    const drop = energyDb(both.samples.subarray(gap)) - energyDb(both.samples.subarray(0, gap));
    assert.ok(drop < -10 && drop > -14, `the soft part is ${drop.toFixed(1)} dB from the loud one`);
  });

  it('an <audio> file is inserted whole; a file that cannot be decoded is replaced by its text, and the job says why', async () => {
    const bare = await speak('espeak-ng', '<speak>One <break time="200ms"/> two</speak>');
    const withTone = await speak(
      'espeak-ng',
      '<speak>One <break time="200ms"/><audio src="tone.wav">bell</audio><break time="200ms"/> two</speak>',
    );
    const added = (withTone.samples.length - bare.samples.length) / RATE;
    assert.ok(Math.abs(added - 0.7) <= 0.02, `the tone and its break added ${added} s`);
    assert.equal(withTone.job.result.ignoredOptions['ssml audio'], undefined);
    const missing = await speak('espeak-ng', '<speak>One <audio src="broken.wav">bell</audio></speak>');
    assert.match(missing.job.result.ignoredOptions['ssml audio'], /could not be read.*its text was spoken instead/);
  });

  it("malformed SSML is a 422 in OpenAI's shape naming line and column; bad values and unknown voices too", async () => {
    const refusals: Array<[string, RegExp]> = [
      ['<speak>\n  Hello <break time="1s">\n</speak>', /^input: SSML line 3, column \d+: /],
      ['<speak>Hi\n<break time="soon"/></speak>', /^input: SSML line 2, column 1: <break time="soon">/],
      ['<speak><voice name="Nobody Here">x</voice></speak>', /<voice name="Nobody Here">: no such voice/],
      ['<speak><audio src="../../../etc/passwd"/></speak>', /^input: SSML line 1, column 8: <audio src=/],
      // The error names what the client gave, never the server's folders (checked below for every refusal).
      [
        '<speak><audio src="no-such-sound.wav"/></speak>',
        /<audio src="no-such-sound.wav">: no such file in the folders open to audio/,
      ],
    ];
    for (const [input, message] of refusals) {
      await assert.rejects(client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input }), (error: unknown) => {
        assert.ok(error instanceof APIError, String(error));
        assert.equal(error.status, 422);
        const body = error.error as { message: string; param: string | null; type: string };
        assert.match(body.message, message);
        assert.equal(body.message.includes(t.dataDir), false, body.message);
        assert.equal(body.param, 'input');
        assert.equal(body.type, 'invalid_request_error');
        return true;
      });
    }
  });

  it('plain text that only mentions <speak> is not SSML', async () => {
    const { job } = await speak('espeak-ng', 'Say <speak> to start.');
    assert.equal(Object.keys(job.result.ignoredOptions).filter((key) => key.startsWith('ssml')).length, 0);
  });
});

/** The sample after the first silence of at least `minSeconds`. */
function findGap(samples: Int16Array, minSeconds: number): number {
  let quiet = 0;
  let started = false;
  for (let i = 0; i < samples.length; i++) {
    if (Math.abs(samples[i]) > QUIET) {
      if (started && quiet >= minSeconds * RATE) return i;
      started = true;
      quiet = 0;
    } else quiet++;
  }
  throw new Error('no gap');
}

/** A mono 16-bit WAV of a 440 Hz tone at 24 kHz. */
function toneWav(seconds: number): Buffer {
  const frames = Math.round(seconds * RATE);
  const data = Buffer.alloc(frames * 2);
  for (let i = 0; i < frames; i++)
    data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / RATE)), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
