import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { before, describe, it } from 'node:test';
import type { LexiconEntry } from '../../src/contract/types';
import { EditorJobs } from '../../src/editor/editor-jobs';
import { readWavSamples } from '../../src/audio/wav-reader';
import { createVoiceLibrary } from '../../src/voices/library';
import { voiceIdFor } from '../../src/voices/voice-id';
import { installSyntheticKitten } from '../helpers/kitten-model';
import { isTerminal, postJson, request, waitFor, waitForJob, useTestServer } from '../helpers/server';

const SPEAKERS = [
  'expr-voice-2-m',
  'expr-voice-2-f',
  'expr-voice-3-m',
  'expr-voice-3-f',
  'expr-voice-4-m',
  'expr-voice-4-f',
  'expr-voice-5-m',
  'expr-voice-5-f',
];
const kittenVoiceId = (speaker: string) => voiceIdFor('sherpa-onnx', `kitten-nano-en-v0.1-fp16#${speaker}`);

describe('Kitten TTS nano voices through the Local API (random-weight model: structure only)', () => {
  const t = useTestServer();

  const kittenVoices = async () => {
    const res = await request(`${t.base}/voices?search=kitten&limit=100`);
    assert.equal(res.status, 200, res.body.toString());
    return res.json().items as {
      id: string;
      name: string;
      languageCode: string;
      gender: string;
      availability: string;
      access: { license: string };
    }[];
  };

  /** One job on a Kitten voice: its record and its decoded WAV output. */
  async function speak(voiceId: string, text: string) {
    const created = await postJson(`${t.base}/tts/jobs`, { voiceId, text, trimSilence: false });
    assert.equal(created.status, 200, created.body.toString());
    const job = await waitForJob(t.base, created.json().id, isTerminal, 60_000);
    assert.equal(job.status, 'succeeded', job.error);
    const wav = readWavSamples((await request(`${t.base}/jobs/${job.id}/output`)).body);
    return { job, wav, peak: wav.samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0) };
  }

  it('GET /voices?search=kitten lists its 8 speakers as en-US voices, not_installed on an empty data dir', async () => {
    const voices = await kittenVoices();
    assert.equal(voices.length, 8);
    assert.deepEqual(voices.map((v) => v.id).sort(), SPEAKERS.map(kittenVoiceId).sort());
    for (const voice of voices) {
      assert.equal(voice.languageCode, 'en-US', voice.name);
      assert.equal(voice.availability, 'not_installed', voice.name);
      assert.equal(voice.access.license, 'Apache-2.0', voice.name);
      assert.match(voice.name, /^Kitten Nano [2-5] (Female|Male) \(English, America\)$/);
      assert.equal(voice.gender, voice.name.includes('Female') ? 'female' : 'male', voice.name);
    }
    assert.equal(voices.filter((v) => v.gender === 'female').length, 4);
  });

  it('speaks with a Kitten voice once installed: 24 kHz, not silent, longer for longer text', async () => {
    await installSyntheticKitten(t.dataDir);
    assert.deepEqual(new Set((await kittenVoices()).map((v) => v.availability)), new Set(['ready']));
    const short = await speak(kittenVoiceId('expr-voice-4-f'), 'Hello there.');
    assert.equal(short.job.backend, 'sherpa-onnx');
    assert.equal(short.job.result.voice.name, 'Kitten Nano 4 Female (English, America)');
    assert.equal(short.job.result.sampleRate, 24000);
    assert.equal(short.wav.info.sampleRate, 24000);
    assert.ok(short.peak > 1000, `peak ${short.peak}`);
    const long = await speak(
      kittenVoiceId('expr-voice-4-f'),
      'Hello there. This sentence is a good deal longer than the first one, with many more words to say.',
    );
    assert.ok(
      long.job.result.durationSeconds > short.job.result.durationSeconds * 2,
      `${short.job.result.durationSeconds} s, then ${long.job.result.durationSeconds} s`,
    );
  });

  it('a lexicon entry changes what a Kitten voice says', async () => {
    const voiceId = kittenVoiceId('expr-voice-2-m');
    const text = 'Nguyen reads the news.';
    const plain = await speak(voiceId, text);
    assert.equal(plain.job.result.lexicon, undefined);
    const put = await request(`${t.base}/lexicon`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ entries: [{ text: 'Nguyen', say: 'win, win, win, win, win, win, win, win' }] }),
    });
    assert.equal(put.status, 200, put.body.toString());
    const respelled = await speak(voiceId, text);
    assert.deepEqual(respelled.job.result.lexicon, { applied: ['Nguyen'], skipped: [] });
    assert.notDeepEqual(respelled.wav.samples, plain.wav.samples, 'the lexicon changed nothing');
    // Eight words for one: the respelling is what is spoken.
    assert.ok(
      respelled.job.result.durationSeconds > plain.job.result.durationSeconds + 0.5,
      `${plain.job.result.durationSeconds} s plain, ${respelled.job.result.durationSeconds} s respelled`,
    );
  });
});

describe("the editor's jobs on a Kitten voice (src/editor/editor-jobs.ts, no VS Code needed)", () => {
  const t = useTestServer();
  let editor: EditorJobs;
  let workspace: LexiconEntry[] = [];
  before(async () => {
    await installSyntheticKitten(t.dataDir);
    editor = new EditorJobs({
      server: async () => t.server,
      voices: createVoiceLibrary({ dataDir: t.dataDir }),
      dataDir: () => t.dataDir,
      defaultVoiceId: () => kittenVoiceId('expr-voice-3-f'),
      preferredSttModel: () => undefined,
      editorLanguage: () => 'en',
      workspaceLexicon: async () => workspace,
    });
  });

  async function run(text: string) {
    const created = await editor.createTts({ text, trimSilence: false });
    const job: any = await waitFor(
      `editor job ${created.id}`,
      async () => t.server.jobs.get(created.id)!,
      isTerminal,
      60_000,
    );
    assert.equal(job.status, 'succeeded', job.error);
    return { job, wav: readWavSamples(await readFile((await editor.outputPath(job))!)) };
  }

  it("speak the workspace lexicon's respelling with the default Kitten voice", async () => {
    workspace = [];
    const plain = await run('Koa is here.');
    assert.equal(plain.job.result.voice.name, 'Kitten Nano 3 Female (English, America)');
    workspace = [{ text: 'Koa', say: 'koh ah, koh ah, koh ah, koh ah, koh ah' }];
    const respelled = await run('Koa is here.');
    assert.deepEqual(respelled.job.result.lexicon, { applied: ['Koa'], skipped: [] });
    assert.notDeepEqual(respelled.wav.samples, plain.wav.samples, 'the workspace lexicon changed nothing');
    assert.ok(
      respelled.job.result.durationSeconds > plain.job.result.durationSeconds + 0.5,
      `${plain.job.result.durationSeconds} s plain, ${respelled.job.result.durationSeconds} s respelled`,
    );
  });
});
