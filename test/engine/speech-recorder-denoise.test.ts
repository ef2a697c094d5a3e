/**
 * The recorder's `denoise`: a voice whose pauses are digital silence (espeak-ng, Flite, SVOX Pico) has no
 * noise floor to reduce, so its samples are recorded as they were made, not even high-passed; a voice
 * with a hiss between words is still denoised.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SampleSpool } from '../../src/engine/audio/sample-spool';
import { SpeechRecorder } from '../../src/engine/tts/speech-recorder';
import { tempDir } from '../helpers/temp';

const RATE = 24_000;

/** Tone bursts (with a 30 Hz hum a high-pass would take out) a quarter second long, a quarter second apart. */
function bursts(seconds: number, hissLevel: number): Int16Array {
  const out = new Int16Array(seconds * RATE);
  let random = 11;
  for (let i = 0; i < out.length; i++) {
    random = (random * 1_103_515_245 + 12_345) % 2_147_483_648;
    const hiss = hissLevel * (random / 2_147_483_648 - 0.5);
    const on = Math.floor((i / RATE) * 4) % 2 === 0;
    const t = i / RATE;
    out[i] = Math.round(
      (on ? 8000 * Math.sin(2 * Math.PI * 300 * t) + 3000 * Math.sin(2 * Math.PI * 30 * t) : 0) + hiss,
    );
  }
  return out;
}

async function record(dir: string, name: string, input: Int16Array): Promise<Int16Array> {
  const recorder = await SpeechRecorder.create(path.join(dir, name), RATE, { denoise: true });
  try {
    // In the audio thread's batches.
    for (let at = 0; at < input.length; at += 32_768) await recorder.write(input.subarray(at, at + 32_768));
    const summary = await recorder.finish();
    const spool = await SampleSpool.open(summary.path, summary.sampleRate);
    const parts: Int16Array[] = [];
    for await (const block of spool.read()) parts.push(block);
    await spool.close();
    const out = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
    parts.reduce((at, part) => (out.set(part, at), at + part.length), 0);
    return out;
  } finally {
    await recorder.dispose();
  }
}

describe('SpeechRecorder with denoise', () => {
  let dir = '';
  before(async () => {
    dir = await tempDir('speech-studio-denoise-');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('records a voice whose pauses are digital silence exactly as it was made', async () => {
    const input = bursts(4, 0);
    assert.deepEqual(await record(dir, 'clean.pcm', input), input);
  });

  it('still denoises a voice with a hiss between words: the pauses come out quieter', async () => {
    const input = bursts(4, 600);
    const output = await record(dir, 'hiss.pcm', input);
    assert.equal(output.length, input.length);
    // The second pause (0.75 s to 1 s), well after the noise floor was measured.
    const energy = (samples: Int16Array): number => samples.reduce((sum, x) => sum + x * x, 0);
    const pause = (samples: Int16Array): Int16Array => samples.subarray(Math.round(0.8 * RATE), RATE);
    assert.ok(energy(pause(output)) < energy(pause(input)) / 4, 'the hiss between the bursts is pushed down');
  });
});
