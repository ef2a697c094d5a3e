import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkTask } from '../../src/engine/task-check';
import type { SpeakTask, TtsVoiceRef } from '../../src/engine-api/protocol';
import { speakSentence } from '../../src/engine/tts/speak-sentence';
import { ensureEspeakData } from '../../src/engine/tts/synthesizers/espeak-data';
import { EngineHost } from '../../src/jobs/engine-host';
import { ClockPlayer } from '../../src/read-aloud/clock-player';
import { engineSynthesizer } from '../../src/read-aloud/engine-speaker';
import { ReadingSession } from '../../src/read-aloud/reading-session';
import { readingSentences } from '../../src/text/reading-sentences';
import { silentLogger } from '../../src/util/log';
import { ENGINE_WORKER } from '../helpers/server';
import { tempDir } from '../helpers/temp';
import { testModel } from '../helpers/test-models';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';

const espeak: TtsVoiceRef = {
  engine: 'espeak-ng',
  engineVoiceId: 'gmw/en-US',
  languageCode: 'en-US',
  name: 'English (America)',
};
const SENTENCE = 'Writers listen to catch what reading misses.';
const speak = (text: string, voice = espeak, extra: Partial<SpeakTask> = {}) =>
  speakSentence({ kind: 'speak', text, voice, speed: 1, ...extra });

let dir: string;
before(async () => {
  dir = await tempDir('speak-task-');
});
after(() => rm(dir, { recursive: true, force: true }));

describe('the speak task (one Read Aloud sentence in the engine)', () => {
  it('answers espeak-ng samples with the offset and start of every word of the text', async () => {
    const { backend, result } = await speak(SENTENCE);
    assert.equal(backend, 'espeak-ng');
    assert.equal(Buffer.from(result.pcm, 'base64').length, Math.round(result.durationSeconds * result.sampleRate) * 2);
    assert.ok(result.durationSeconds > 1.5, `${result.durationSeconds} s`);
    const words = result.words!.map((w) => SENTENCE.slice(w.start, w.end));
    assert.deepEqual(words, ['Writers', 'listen', 'to', 'catch', 'what', 'reading', 'misses']);
    const starts = result.words!.map((w) => w.startSeconds);
    assert.deepEqual(
      starts,
      [...starts].sort((a, b) => a - b),
      'in order',
    );
    assert.ok(starts.at(-1)! < result.durationSeconds);
    assert.ok(result.firstSamplesMs > 0 && result.firstSamplesMs <= result.synthesisMs);
  });

  it("speaks faster at a higher speed (espeak-ng's own rate)", async () => {
    const normal = await speak(SENTENCE);
    const fast = await speak(SENTENCE, espeak, { speed: 2 });
    assert.ok(
      fast.result.durationSeconds < normal.result.durationSeconds * 0.7,
      `${fast.result.durationSeconds} vs ${normal.result.durationSeconds}`,
    );
  });

  it('applies the lexicon: the word with an entry is said as its respelling, and word times are then estimated', async () => {
    // espeak-ng carries some state from one synthesis to the next in a process, so the audio differs by a few samples.
    const entry = await speak('Koa is small.', espeak, { lexicon: [{ text: 'Koa', say: 'koh ah' }] });
    const respelled = await speak('koh ah is small.');
    const plain = await speak('Koa is small.');
    assert.ok(
      Math.abs(entry.result.durationSeconds - respelled.result.durationSeconds) < 0.005,
      `${entry.result.durationSeconds} vs ${respelled.result.durationSeconds}`,
    );
    assert.ok(
      Math.abs(entry.result.durationSeconds - plain.result.durationSeconds) > 0.05,
      `not as without the entry (${plain.result.durationSeconds})`,
    );
    assert.equal(entry.result.words, null);
  });

  it('runs a sherpa-onnx voice (random weights: structure only), keeping its engine open for the next sentence', async () => {
    const espeakDataDir = path.join(dir, 'espeak-ng-data');
    await ensureEspeakData(espeakDataDir);
    const vits: TtsVoiceRef = {
      engine: 'sherpa-onnx',
      engineVoiceId: 'test-vits',
      languageCode: 'en-US',
      name: 'Synthetic vits',
      model: {
        kind: 'vits',
        files: {
          model: testModel('sherpa-synthetic/vits-piper/model.onnx'),
          tokens: testModel('sherpa-synthetic/vits-piper/tokens.txt'),
        },
        speakerId: 0,
        espeakDataDir,
      },
    };
    const first = await speak(SENTENCE, vits);
    assert.equal(first.backend, 'sherpa-onnx');
    assert.equal(first.result.sampleRate, 22050);
    assert.equal(first.result.words, null, 'no word times from this engine');
    const second = await speak('A second sentence.', vits);
    assert.ok(
      second.result.synthesisMs < first.result.synthesisMs,
      `the model loaded once (${second.result.synthesisMs} vs ${first.result.synthesisMs} ms)`,
    );
  });

  it("is checked like every task: a speed outside the API's range or an empty text is refused", async () => {
    await assert.rejects(
      checkTask({ kind: 'speak', text: 'Hi.', voice: espeak, speed: 3 }),
      /speed is not a number from 0.5 to 2/,
    );
    await assert.rejects(checkTask({ kind: 'speak', text: '  ', voice: espeak, speed: 1 }), /text is not a text/);
    assert.equal((await checkTask({ kind: 'speak', text: 'Hi.', voice: espeak, speed: 1 })).kind, 'speak');
  });
});

describe('a Read Aloud session through the engine process', () => {
  const host = new EngineHost({
    workerPath: ENGINE_WORKER,
    log: silentLogger,
    config: () => engineConfigFromEnvironment(),
  });
  after(() => host.close());

  it('plays every sentence in order, each after the configured pause, with one warm engine process', async () => {
    const sentences = readingSentences('# Title\n\nOne short sentence. And another one.', 'markdown');
    const player = new ClockPlayer();
    const session = new ReadingSession(sentences, {
      synthesize: engineSynthesizer(host, espeak),
      player,
      pauseSeconds: 0.2,
    });
    player.connect(session);
    const done = new Promise<string>((resolve) =>
      session.on('state', (state) => (state === 'finished' || state === 'stopped') && resolve(state)),
    );
    session.start();
    assert.equal(await done, 'finished');
    assert.deepEqual(
      player.played.map((p) => p.index),
      [0, 1, 2],
    );
    for (let i = 1; i < player.played.length; i++) {
      const gap = player.played[i].startedAt - player.played[i - 1].endedAt!;
      assert.ok(gap >= 195, `at least the pause between sentences ${i - 1} and ${i} (${gap} ms)`);
    }
    assert.equal(host.pids.length, 1);
  });

  it('skips a sentence that went stale before it reached the engine', async () => {
    const synthesize = engineSynthesizer(host, espeak);
    const stale = new AbortController();
    const first = synthesize('First.', 1, new AbortController().signal);
    const skipped = synthesize('Skipped.', 1, stale.signal);
    stale.abort();
    // Withdrawn from the engine's queue at once, while the first sentence still runs.
    const refused = assert.rejects(skipped, /skipped/);
    assert.ok((await first).durationSeconds > 0);
    await refused;
  });

  it('starts a new reading on the warm process, after the sentence a stopped reading left in it', async () => {
    const [pid] = host.pids;
    const stopped = new AbortController();
    const stale = engineSynthesizer(host, espeak)('A sentence the reader no longer wants to hear.', 1, stopped.signal);
    await new Promise((resolve) => setImmediate(resolve)); // it is in the engine now
    stopped.abort();
    const next = await engineSynthesizer(host, espeak)('The new reading.', 1, new AbortController().signal);
    assert.ok(next.durationSeconds > 0);
    await stale;
    assert.deepEqual(host.pids, [pid], 'no second engine process');
  });
});
