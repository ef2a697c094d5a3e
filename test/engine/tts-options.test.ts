import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TtsRequest } from '../../src/contract/types';
import { measureLoudness } from '../../src/engine/audio/loudness';
import { readWavSamples } from '../../src/audio/wav-reader';
import { UserFacingError, type TtsTask, type TtsVoiceRef } from '../../src/engine-api/protocol';
import { runTtsTask } from '../../src/engine/tts/run-tts';
import { tempDir } from '../helpers/temp';
import { configureTestEngine } from '../helpers/engine-config';

// Engine code runs in this process too: configured from the environment, as the host configures its engine processes.
configureTestEngine({});

const OPTIONS: Omit<TtsRequest, 'text'> = {
  voiceId: '59ecd22d-96db-56b8-a0f4-62d14ba28a8b',
  language: 'auto',
  inputFormat: 'txt',
  outputFormat: 'wav',
  sampleRate: 24000,
  bitrateKbps: 128,
  audioChannels: 'mono',
  steps: 32,
  guidanceScale: 2,
  speed: 1,
  duration: null,
  denoise: true,
  preprocessPrompt: true,
  postprocessOutput: true,
  trimSilence: true,
};
const ESPEAK: TtsVoiceRef = {
  engine: 'espeak-ng',
  engineVoiceId: 'gmw/en-US',
  languageCode: 'en-US',
  name: 'English (America)',
};
const FLITE: TtsVoiceRef = { engine: 'flite', engineVoiceId: 'rms', languageCode: 'en-US', name: 'Flite RMS' };
const TEXT = 'The quick brown fox jumps over the lazy dog. Then it runs into the forest, far away.';

let dir: string;
let runs = 0;
before(async () => {
  dir = await tempDir('tts-options-');
});
after(() => rm(dir, { recursive: true, force: true }));

async function speak(options: Partial<TtsTask['options']> = {}, text = TEXT, voice = ESPEAK) {
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
  return {
    result: outcome.result as Record<string, any>,
    samples: wav.samples,
    rate: wav.info.sampleRate,
    seconds: wav.info.frames / wav.info.sampleRate,
  };
}

describe('duration', () => {
  it('stretches or compresses the speech to the target length', async () => {
    const natural = (await speak()).seconds;
    for (const target of [natural * 1.4, natural * 0.7]) {
      const { result, seconds } = await speak({ duration: target });
      assert.ok(Math.abs(seconds - target) / target < 0.05, `${seconds} s for a target of ${target} s`);
      assert.equal(result.duration.reachedTarget, true);
      assert.equal(result.durationSeconds, Math.round(seconds * 1000) / 1000);
    }
  });

  it('stays within the speed limits and says how close it got', async () => {
    const { result, seconds } = await speak({ duration: 1 });
    assert.equal(result.duration.reachedTarget, false);
    assert.equal(result.duration.stretchFactor, 2);
    assert.ok(Math.abs(seconds - result.duration.naturalSeconds / 2) < 0.1);
  });
});

describe('loudness normalization and peak limiting (postprocessOutput)', () => {
  it('brings different voices to the same loudness, with no peak above -1 dBFS', async () => {
    const levels: number[] = [];
    for (const voice of [ESPEAK, FLITE]) {
      const { result, samples, rate } = await speak({}, TEXT, voice);
      const lufs = measureLoudness(samples, rate);
      levels.push(lufs);
      assert.ok(Math.abs(lufs - -16) < 1, `${voice.name}: ${lufs} LUFS`);
      assert.equal(result.loudness.targetLufs, -16);
      const peak = samples.reduce((max, v) => Math.max(max, Math.abs(v)), 0) / 32768;
      assert.ok(20 * Math.log10(peak) <= -0.9, `peak ${20 * Math.log10(peak)} dBFS`);
    }
    assert.ok(Math.abs(levels[0] - levels[1]) < 1);
  });

  it("leaves the engine's own level when post-processing is off", async () => {
    const { result, samples, rate } = await speak({ postprocessOutput: false, denoise: false });
    assert.equal(result.loudness, null);
    assert.ok(measureLoudness(samples, rate) < -19, 'espeak-ng speaks at about -21 LUFS');
  });
});

describe('language, preprocessPrompt, steps and guidanceScale', () => {
  it('switches an espeak-ng voice to the requested language', async () => {
    const german = await speak({ language: 'de' }, 'Guten Morgen, wie geht es Ihnen heute?');
    assert.equal(german.result.language, 'de');
    assert.equal(german.result.ignoredOptions.language, undefined);
    const unknown = await speak({ language: 'tlh' }, 'Hello.');
    assert.match(unknown.result.ignoredOptions.language, /cannot switch it to tlh/);
  });

  it('does not read code fences and markup aloud when preprocessPrompt is on', async () => {
    const markdown = `Intro.\n\n\`\`\`js\n${'const value = compute(a[1], b[2]) + 42; // note\n'.repeat(5)}\`\`\`\n\n**Done.**`;
    const read = await speak({ preprocessPrompt: true }, markdown);
    const raw = await speak({ preprocessPrompt: false }, markdown);
    assert.ok(read.seconds < raw.seconds / 3, `${read.seconds} s with, ${raw.seconds} s without`);
  });

  it('records steps and guidanceScale as ignored by engines that do not take them', async () => {
    const { result } = await speak({ steps: 8, guidanceScale: 4 }, 'Hi.');
    assert.match(result.ignoredOptions.steps, /no sampling steps/);
    assert.match(result.ignoredOptions.guidanceScale, /no guidance scale/);
  });
});

describe('encoded formats without ffmpeg', () => {
  it('fail at once with a sentence saying how to get ffmpeg, while wav needs none', async () => {
    const restore = configureTestEngine({ ffmpeg: path.join(dir, 'no-such-ffmpeg') });
    try {
      await assert.rejects(speak({ outputFormat: 'mp3' }, 'Hello.'), (error: unknown) => {
        assert.ok(error instanceof UserFacingError);
        assert.match(error.message, /^ffmpeg was not found; install it or set SPEECH_STUDIO_FFMPEG/);
        return true;
      });
      assert.ok((await speak({ outputFormat: 'wav' }, 'Hello.')).seconds > 0.2);
    } finally {
      restore();
    }
  });
});
