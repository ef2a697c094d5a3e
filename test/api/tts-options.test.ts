import assert from 'node:assert/strict';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { readWavSamples } from '../../src/audio/wav-reader';
import { voiceIdFor } from '../../src/voices/voice-id';
import { assertErrorBody, isTerminal, postJson, request, waitForJob, useTestServer } from '../helpers/server';
import { testModel } from '../helpers/test-models';
import { decodeMono, probeAudio, soundOnsets, srtOf } from '../helpers/tts-audio';
import { englishVoiceId } from '../helpers/voices';

const TEXT = 'Speech Studio turns this text into speech, in every format the API offers.';
const MEDIA_TYPES = { wav: 'audio/wav', mp3: 'audio/mpeg', aac: 'audio/aac', flac: 'audio/flac' } as const;
const CODECS = { wav: 'pcm_s16le', mp3: 'mp3', aac: 'aac', flac: 'flac' } as const;

describe('TTS request options through the Local API', () => {
  const t = useTestServer();
  let voiceId: string;
  before(async () => {
    voiceId = await englishVoiceId(t.base);
  });

  /** Runs a job to success; returns it and its output saved to a file. */
  async function run(body: Record<string, unknown>) {
    const created = await postJson(`${t.base}/tts/jobs`, { voiceId, ...body });
    assert.equal(created.status, 200, created.body.toString());
    const job = await waitForJob(t.base, created.json().id, isTerminal, 60_000);
    assert.equal(job.status, 'succeeded', job.error);
    const output = await request(`${t.base}/jobs/${job.id}/output`);
    assert.equal(output.status, 200);
    const file = path.join(t.dataDir, `check-${job.id}.${job.result.outputFormat}`);
    await writeFile(file, output.body);
    return { job, output, file };
  }

  it('writes wav, mp3, aac and flac that ffprobe reads back with the requested rate, channels and length', async () => {
    const cases = [
      { outputFormat: 'wav', sampleRate: 16000, audioChannels: 'mono' },
      { outputFormat: 'mp3', sampleRate: 44100, audioChannels: 'stereo', bitrateKbps: 192 },
      { outputFormat: 'aac', sampleRate: 48000, audioChannels: 'mono', bitrateKbps: null },
      { outputFormat: 'flac', sampleRate: 22050, audioChannels: 'stereo' },
    ] as const;
    for (const options of cases) {
      const { job, output, file } = await run({ text: TEXT, ...options });
      const format = options.outputFormat;
      assert.equal(output.headers['content-type'], MEDIA_TYPES[format]);
      assert.equal(job.result.mediaType, MEDIA_TYPES[format]);
      assert.equal(job.result.bytes, output.body.length);
      const probed = await probeAudio(file);
      assert.deepEqual(
        [probed.codec, probed.sampleRate, probed.channels],
        [CODECS[format], options.sampleRate, options.audioChannels === 'stereo' ? 2 : 1],
        format,
      );
      // Encoders add a few milliseconds of priming and padding; the length must still match the result.
      assert.ok(
        Math.abs(probed.decodedSeconds - job.result.durationSeconds) < 0.1,
        `${format}: ${probed.decodedSeconds} vs ${job.result.durationSeconds}`,
      );
      assert.ok(job.result.durationSeconds > 3, `${format}: ${job.result.durationSeconds} s`);
    }
  });

  it('reports the bitrate the encoder used, and ignores it for lossless formats', async () => {
    const mp3 = await run({ text: 'Bitrate.', outputFormat: 'mp3', sampleRate: 16000, bitrateKbps: 320 });
    assert.equal(mp3.job.result.bitrateKbps, 160, 'MPEG-2 layer III stops at 160 kbps');
    const flac = await run({ text: 'Bitrate.', outputFormat: 'flac', bitrateKbps: 320 });
    assert.equal(flac.job.result.bitrateKbps, null);
    assert.match(flac.job.result.ignoredOptions.bitrateKbps, /lossless/);
  });

  it('speaks noticeably faster at speed 2 than at speed 1', async () => {
    const normal = (await run({ text: TEXT })).job.result.durationSeconds;
    const fast = (await run({ text: TEXT, speed: 2 })).job.result.durationSeconds;
    assert.ok(fast < normal * 0.65, `speed 2: ${fast} s, speed 1: ${normal} s`);
  });

  it('hits a duration target within 5 %', async () => {
    const { job, file } = await run({ text: TEXT, duration: 7.5, outputFormat: 'mp3' });
    const probed = await probeAudio(file);
    assert.ok(Math.abs(probed.decodedSeconds - 7.5) / 7.5 < 0.05, `${probed.decodedSeconds} s`);
    assert.equal(job.result.duration.targetSeconds, 7.5);
    assert.equal(job.result.duration.reachedTarget, true);
  });

  it('narrates an SRT to MP3: speech starts at each cue and the audio lasts until the last cue ends', async () => {
    const cues: [number, number, string][] = [
      [1, 3, 'First, the introduction.'],
      [4, 6, 'Then the middle part.'],
      [7.5, 9.5, 'And the end.'],
    ];
    const { job, file } = await run({ text: srtOf(cues), inputFormat: 'srt', outputFormat: 'mp3', sampleRate: 24000 });
    const samples = await decodeMono(file, 24000);
    const probed = await probeAudio(file);
    assert.ok(Math.abs(probed.decodedSeconds - 9.5) < 0.1, `${probed.decodedSeconds} s`);
    const onsets = soundOnsets(samples, 24000);
    assert.equal(onsets.length, 3, `onsets ${onsets.join(',')}`);
    // The MP3 encoder's delay (about 50 ms at 24 kHz) shifts everything a little later.
    onsets.forEach((onset, i) =>
      assert.ok(onset - cues[i][0] > -0.02 && onset - cues[i][0] < 0.1, `cue ${i + 1}: ${onset}`),
    );
    assert.equal(job.result.cues.length, 3);
    assert.equal(job.result.overranCues, 0);
  });

  it('narrates WebVTT to WAV with the cue timing exact to the sample rate', async () => {
    const vtt =
      'WEBVTT\n\n00:00.500 --> 00:02.000\n<v Ann>Hello.\n\n00:03.000 --> 00:04.500 align:end\n<i>Goodbye.</i>\n';
    const { job, output } = await run({ text: vtt, inputFormat: 'vtt', sampleRate: 16000 });
    const { info, samples } = readWavSamples(output.body);
    assert.ok(Math.abs(info.frames / 16000 - 4.5) < 0.002);
    const onsets = soundOnsets(samples, 16000);
    assert.ok(Math.abs(onsets[0] - 0.5) < 0.03 && Math.abs(onsets[1] - 3) < 0.03, `onsets ${onsets.join(',')}`);
    assert.deepEqual(
      job.result.cues.map((cue: { speaker: string | null }) => cue.speaker),
      ['Ann', null],
    );
  });
});

describe('neural voices through the Local API', () => {
  const t = useTestServer();
  const lessac = voiceIdFor('sherpa-onnx', 'piper-en-us-lessac-medium');

  it('lists a catalog voice as not installed and answers 409 VOICE_NOT_READY for a job with it', async () => {
    const page = (await request(`${t.base}/voices?search=lessac`)).json();
    assert.deepEqual(
      page.items.map((v: { id: string; availability: string }) => [v.id, v.availability]),
      [[lessac, 'not_installed']],
    );
    const res = await postJson(`${t.base}/tts/jobs`, { voiceId: lessac, text: 'Hello.' });
    assert.match(assertErrorBody(res, 409, 'VOICE_NOT_READY').error.message, /Lessac .* is not installed/);
  });

  it('becomes ready as soon as its files are installed, without a restart, and runs through sherpa-onnx', async () => {
    const dir = path.join(t.dataDir, 'models', 'tts', 'piper-en-us-lessac-medium');
    await mkdir(dir, { recursive: true });
    // Random-weight stand-ins with the real file names: the job runs sherpa-onnx's real code path.
    await copyFile(testModel('sherpa-synthetic/vits-piper/model.onnx'), path.join(dir, 'en_US-lessac-medium.onnx'));
    await copyFile(testModel('sherpa-synthetic/vits-piper/tokens.txt'), path.join(dir, 'tokens.txt'));
    await writeFile(path.join(dir, 'en_US-lessac-medium.onnx.json'), '{}');
    const voice = (await request(`${t.base}/voices?search=lessac`)).json().items[0];
    assert.equal(voice.availability, 'ready');
    const created = await postJson(`${t.base}/tts/jobs`, {
      voiceId: lessac,
      text: 'Hello from a neural voice.',
      outputFormat: 'flac',
      trimSilence: false,
    });
    const job = await waitForJob(t.base, created.json().id, isTerminal, 60_000);
    assert.equal(job.status, 'succeeded', job.error);
    assert.equal(job.backend, 'sherpa-onnx');
    assert.equal(job.result.voice.engine, 'sherpa-onnx');
    assert.ok(job.result.durationSeconds > 0.3);
  });
});
