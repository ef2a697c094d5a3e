import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TtsRequest } from '../../src/contract/types';
import { readWavSamples } from '../../src/audio/wav-reader';
import type { TtsTask, TtsVoiceRef } from '../../src/engine-api/protocol';
import { runTtsTask } from '../../src/engine/tts/run-tts';
import { onnxMetadata } from '../fixtures/kitten/make-kitten-model';
import { makeZipVoiceModel, vocabularySize } from '../fixtures/zipvoice/make-zipvoice-model';
import { tempDir } from '../helpers/temp';
import { testModel } from '../helpers/test-models';
import { writeSyntheticZipVoice } from '../helpers/zipvoice-model';

const OPTIONS: Omit<TtsRequest, 'text'> = {
  voiceId: '00000000-0000-5000-8000-000000000000',
  language: 'auto',
  inputFormat: 'txt',
  outputFormat: 'wav',
  sampleRate: 24000,
  bitrateKbps: null,
  audioChannels: 'mono',
  steps: 4,
  guidanceScale: 1,
  speed: 1,
  duration: null,
  denoise: false,
  preprocessPrompt: true,
  postprocessOutput: false,
  trimSilence: false,
};

let dir: string;
let files: Record<string, string>;
let runs = 0;
before(async () => {
  dir = await tempDir('zipvoice-tts-');
  files = writeSyntheticZipVoice(path.join(dir, 'zipvoice'));
});
after(() => rm(dir, { recursive: true, force: true }));

const cloned = (modelFiles: Record<string, string>): TtsVoiceRef => ({
  engine: 'sherpa-onnx',
  engineVoiceId: 'custom/jfk#0',
  languageCode: 'en-US',
  name: 'Cloned JFK',
  model: {
    kind: 'zipvoice',
    files: modelFiles,
    speakerId: 0,
    espeakDataDir: path.join(dir, 'runtime', 'espeak-ng-data'),
    reference: {
      audioPath: testModel('audio/jfk.wav'),
      text: 'And so my fellow Americans, ask not what your country can do for you.',
    },
  },
});

async function speak(voice: TtsVoiceRef, text: string, options: Partial<TtsTask['options']> = {}) {
  const run = ++runs;
  const task: TtsTask = {
    kind: 'tts',
    textPath: path.join(dir, `in-${run}.txt`),
    outputPath: path.join(dir, `out-${run}.wav`),
    options: { ...OPTIONS, ...options },
    voice,
  };
  await writeFile(task.textPath, text);
  const outcome = await runTtsTask(task, () => undefined);
  const wav = readWavSamples(await readFile(task.outputPath));
  const peak = wav.samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0);
  return { outcome, wav, peak, seconds: wav.info.frames / wav.info.sampleRate };
}

describe('the synthetic ZipVoice model', () => {
  it('carries the metadata sherpa-onnx reads from its decoder and vocoder, and the same seed writes the same bytes', async () => {
    const tokens = await readFile(files.tokens, 'utf8');
    const model = makeZipVoiceModel(tokens);
    const decoder = onnxMetadata(model.decoder);
    assert.deepEqual(
      [
        decoder.feat_dim,
        decoder.sample_rate,
        decoder.n_fft,
        decoder.hop_length,
        decoder.window_length,
        decoder.num_mels,
      ],
      ['100', '24000', '1024', '256', '1024', '100'],
    );
    assert.equal(onnxMetadata(model.vocoder).model_type, 'vocos');
    assert.equal(onnxMetadata(model.encoder).use_espeak, '1');
    assert.ok(vocabularySize(tokens) > 100, 'the vocabulary is the espeak-ng IPA token set');
    assert.match(tokens, /^ {2}\d+$/m, 'tokens.txt holds the space token the front end needs');
    assert.deepEqual(makeZipVoiceModel(tokens).decoder, model.decoder);
    assert.notDeepEqual(makeZipVoiceModel(tokens, 1).decoder, model.decoder);
  });

  it('the real sherpa-onnx engine clones from jfk.wav and its text: 24 kHz audio whose length follows the text and the speed', async () => {
    const short = await speak(cloned(files), 'Hello there.');
    const long = await speak(cloned(files), 'Hello there, this sentence is a good deal longer than the first one was.');
    const fast = await speak(
      cloned(files),
      'Hello there, this sentence is a good deal longer than the first one was.',
      { speed: 2 },
    );
    assert.equal(short.outcome.backend, 'sherpa-onnx');
    assert.equal(short.wav.info.sampleRate, 24000);
    assert.ok(short.peak > 0, 'not silence');
    assert.ok(long.seconds > short.seconds * 2, `longer text, longer audio (${short.seconds} s, ${long.seconds} s)`);
    assert.ok(fast.seconds < long.seconds * 0.75, `speed 2 is shorter (${long.seconds} s, ${fast.seconds} s)`);
  });

  it('speaks without a lexicon file (the catalog has none): an empty one stands in and espeak-ng reads every word', async () => {
    const { lexicon: _lexicon, ...withoutLexicon } = files;
    const { peak, seconds } = await speak(cloned(withoutLexicon), 'Speech Studio speaks without a lexicon.');
    assert.ok(peak > 0 && seconds > 0.2, `${seconds} s`);
  });
});
