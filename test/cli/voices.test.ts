/**
 * `cli.js voices clone | mix | list | remove`: a voice cloned from jfk.wav with the synthetic ZipVoice model
 * (reference trimmed and loudness-normalized by the real engine, its text recognized by the installed
 * recognizer or given), a Kokoro mix of the synthetic Kokoro's speakers; both listed by GET /v1/voices with
 * their creationMode, both speak through a real TTS job, both removed. Every refusal is a sentence and exit 1.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { measureLoudness } from '../../src/engine/audio/loudness';
import { readWavSamples } from '../../src/audio/wav-reader';
import { runCli } from '../helpers/cli';
import { installSyntheticKokoro } from '../helpers/kokoro-model';
import { isTerminal, postJson, request, startTestServer, tempDir, waitForJob } from '../helpers/server';
import { installSttModel } from '../helpers/stt-engine';
import { testModel } from '../helpers/test-models';
import { wavHeader } from '../helpers/wav';
import { installSyntheticZipVoice } from '../helpers/zipvoice-model';

describe('cli.js voices', () => {
  let dataDir: string;
  const cli = (args: string[]) => runCli(['voices', ...args, '--data-dir', dataDir]);
  const JFK = () => testModel('audio/jfk.wav');

  before(async () => {
    dataDir = await tempDir();
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('refuses to clone before ZipVoice is installed, naming the command that installs it, and without consent', async () => {
    const missing = await cli([
      'clone',
      JFK(),
      '--name',
      'JFK',
      '--text',
      'And so my fellow Americans.',
      '--yes-consent',
    ]);
    assert.equal(missing.code, 1);
    assert.match(
      missing.stderr,
      /ZipVoice model, which is not installed.*models install zipvoice-distill-int8-zh-en-emilia/,
    );
    const noConsent = await cli(['clone', JFK(), '--name', 'JFK']);
    assert.equal(noConsent.code, 1);
    assert.match(noConsent.stderr, /consent.*--yes-consent/s);
    assert.equal((await cli(['clone', JFK()])).code, 2, 'no --name: usage');
  });

  it('clones jfk.wav: trimmed, normalized reference, text recognized by the installed recognizer, consent recorded', async () => {
    installSyntheticZipVoice(dataDir);
    await installSttModel(dataDir);
    await mkdir(path.join(dataDir, 'models', 'vad'), { recursive: true });
    await copyFile(
      testModel('vad/ggml-silero-v6.2.0.bin'),
      path.join(dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'),
    );

    const result = await cli(['clone', JFK(), '--name', 'Fellow American', '--yes-consent']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Cloned Fellow American from [\d.]+ s of speech/);
    const manifest = JSON.parse(
      await readFile(path.join(dataDir, 'models', 'tts', 'fellow-american', 'voice.json'), 'utf8'),
    );
    assert.equal(manifest.creationMode, 'cloned');
    assert.equal(manifest.uses, 'zipvoice-distill-int8-zh-en-emilia');
    assert.ok(manifest.reference.text.length > 0, 'the recognized text is kept');
    assert.match(manifest.consent.statement, /consented/);
    assert.ok(!Number.isNaN(Date.parse(manifest.consent.confirmedAt)));

    const reference = readWavSamples(
      await readFile(path.join(dataDir, 'models', 'tts', 'fellow-american', 'reference.wav')),
    );
    const original = readWavSamples(await readFile(JFK()));
    assert.equal(reference.info.channels, 1);
    assert.ok(reference.info.frames < original.info.frames, 'silence trimmed from the ends');
    const lufs = measureLoudness(reference.samples, reference.info.sampleRate);
    const peak = reference.samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0);
    // -20 LUFS, unless the -1 dBFS peak ceiling stopped the gain first.
    assert.ok(Math.abs(lufs + 20) < 0.5 || peak >= 32767 * 10 ** (-1.1 / 20), `${lufs} LUFS, peak ${peak}`);
  });

  it('clones with the given text; refuses a name taken, a clip too short, a recording with no speech', async () => {
    const given = await cli([
      'clone',
      JFK(),
      '--name',
      'Kennedy',
      '--text',
      'And so my fellow Americans, ask not.',
      '--yes-consent',
    ]);
    assert.equal(given.code, 0, given.stderr);
    assert.match(given.stdout, /Reference text: And so my fellow Americans, ask not\./);

    const taken = await cli(['clone', JFK(), '--name', 'kennedy', '--text', 'x', '--yes-consent']);
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /already exists/);

    const bytes = await readFile(JFK());
    const dataAt = bytes.indexOf('data') + 8;
    const samples = bytes.subarray(dataAt + 16000 * 2 * 1, dataAt + 16000 * 2 * 2.5);
    const short = path.join(dataDir, 'short.wav');
    await writeFile(short, Buffer.concat([wavHeader(samples.length), samples]));
    const tooShort = await cli(['clone', short, '--name', 'Short', '--text', 'And so my', '--yes-consent']);
    assert.equal(tooShort.code, 1);
    assert.match(tooShort.stderr, /s of speech; a voice needs 3–30 s: record a longer clip/);

    const silent = await cli([
      'clone',
      testModel('audio/noise-no-speech.wav'),
      '--name',
      'Noise',
      '--text',
      'nothing',
      '--yes-consent',
    ]);
    assert.equal(silent.code, 1);
    assert.match(silent.stderr, /no speech|s of speech/);
    const listed = await cli(['list']);
    assert.doesNotMatch(listed.stdout, /Short|Noise/, 'a refused clone leaves nothing behind');
  });

  it('mixes Kokoro speakers into a designed voice whose style is the weighted blend', async () => {
    const kokoro = await installSyntheticKokoro(dataDir);
    const result = await cli(['mix', '--kokoro', 'af_bella:0.6,am_adam:0.4', '--name', 'Bella Adam']);
    assert.equal(result.code, 0, result.stderr);
    const folder = path.join(dataDir, 'models', 'tts', 'bella-adam');
    const manifest = JSON.parse(await readFile(path.join(folder, 'voice.json'), 'utf8'));
    assert.deepEqual(
      [manifest.creationMode, manifest.engine, manifest.uses, manifest.languageCode],
      ['designed', 'kokoro', 'kokoro-en-v0.19', 'en-US'],
    );
    const source = new Float32Array((await readFile(kokoro.voices)).buffer.slice(0));
    const mixed = new Float32Array((await readFile(path.join(folder, 'voices.bin'))).buffer.slice(0));
    assert.equal(mixed.length, source.length, 'as many rows as the model has speakers, as sherpa-onnx requires');
    const row = source.length / 11;
    // af_bella is speaker 1 and am_adam speaker 5 of kokoro-en-v0.19.
    for (const i of [0, 7, row - 1])
      assert.ok(Math.abs(mixed[i] - (0.6 * source[row + i] + 0.4 * source[5 * row + i])) < 1e-5);
    for (const [args, pattern] of [
      [['mix', '--kokoro', 'af_nobody:1', '--name', 'X'], /No Kokoro speaker "af_nobody"/],
      [['mix', '--kokoro', 'af_bella:0', '--name', 'X'], /weight above 0/],
      [['mix', '--kokoro', 'af_bella:1', '--name', 'Bella Adam'], /already exists/],
    ] as const) {
      const refused = await cli([...args]);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, pattern);
    }
  });

  it('GET /v1/voices lists both with their creationMode, and each speaks through a real TTS job', async () => {
    const list = await cli(['list']);
    assert.match(list.stdout, /\tFellow American\ten\w*\tcloned\tready\n/);
    assert.match(list.stdout, /\tBella Adam\ten-US\tdesigned\tready\n/);
    const t = await startTestServer({ dataDir });
    try {
      const res = await request(`${t.base}/voices?scope=personal&limit=100`);
      assert.equal(res.status, 200);
      const voices = res.json().items as Array<{
        id: string;
        name: string;
        creationMode: string;
        access: { scope: string };
      }>;
      const bella = voices.find((v) => v.name === 'Bella Adam');
      const fellow = voices.find((v) => v.name === 'Fellow American');
      assert.deepEqual([bella?.creationMode, fellow?.creationMode], ['designed', 'cloned']);
      assert.deepEqual(
        Object.keys(fellow!).filter(
          (key) =>
            !['id', 'name', 'languageCode', 'gender', 'ageGroup', 'creationMode', 'availability', 'access'].includes(
              key,
            ),
        ),
        [],
        'the seed Voice shape, no new field',
      );
      for (const voice of [bella!, fellow!]) {
        const created = await postJson(`${t.base}/tts/jobs`, { voiceId: voice.id, text: 'A voice of my own.' });
        assert.equal(created.status, 200, created.body.toString());
        const done = await waitForJob(t.base, created.json().id, isTerminal, 120_000);
        assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
      }
    } finally {
      await t.stop();
    }
  });

  it('removes them by name; removing an unknown name fails', async () => {
    assert.match((await cli(['remove', 'Fellow American'])).stdout, /Removed Fellow American/);
    assert.match((await cli(['remove', 'bella adam'])).stdout, /Removed Bella Adam/);
    assert.match((await cli(['remove', 'Kennedy'])).stdout, /Removed Kennedy/);
    const unknown = await cli(['remove', 'Nobody']);
    assert.equal(unknown.code, 1);
    assert.match((await cli(['list'])).stdout, /No cloned or designed voices yet/);
  });
});
