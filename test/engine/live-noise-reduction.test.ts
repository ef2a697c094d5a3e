/**
 * A live session's noise reduction: GTCRN (the real model in the shared test models) changes the samples
 * handed on to VAD and recognition and keeps their length; a session asks the engine for it only while
 * `noise_reduction` is set (the recognition stand-in here records the looks, inside this test only).
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LiveWindowResult } from '../../src/engine-api/protocol';
import { denoiseSpeech } from '../../src/engine/stt/speech-denoise';
import type { LiveLook, LiveRecognition } from '../../src/jobs/live-recognition';
import { LiveSession, type ServerEvent } from '../../src/realtime/live-session';
import { tempDir } from '../helpers/temp';
import { testModel } from '../helpers/test-models';

/** The samples of a 16 kHz mono 16-bit WAV file with a 44-byte header (mix.wav is one). */
async function wavSamples(file: string): Promise<Int16Array> {
  const bytes = await readFile(file);
  const data = bytes.subarray(44);
  return new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + (data.byteLength & ~1)));
}

const energy = (pcm: Int16Array): number => pcm.reduce((sum, x) => sum + x * x, 0) / Math.max(1, pcm.length);

describe('denoiseSpeech (GTCRN)', () => {
  let modelsDir = '';
  before(async () => {
    modelsDir = await tempDir('speech-studio-denoise-');
    await mkdir(path.join(modelsDir, 'enhancement'));
    await copyFile(
      testModel('enhancement', 'gtcrn_simple.onnx'),
      path.join(modelsDir, 'enhancement', 'gtcrn_simple.onnx'),
    );
  });
  after(() => rm(modelsDir, { recursive: true, force: true }));

  it('hands on other samples of the same length: the noisy mix comes out changed and quieter', async () => {
    const noisy = await wavSamples(testModel('enhancement', 'mix.wav'));
    const cleaned = await denoiseSpeech(noisy, modelsDir, 1);
    assert.equal(cleaned.length, noisy.length);
    let changed = 0;
    for (let i = 0; i < noisy.length; i += 1) if (Math.abs(cleaned[i] - noisy[i]) > 16) changed += 1;
    assert.ok(changed > noisy.length / 4, `only ${changed} of ${noisy.length} samples changed`);
    assert.ok(energy(cleaned) < energy(noisy), `energy ${energy(cleaned)} is not below ${energy(noisy)}`);
  });

  it("refuses with the model's place when it is not installed", async () => {
    const empty = await tempDir('speech-studio-denoise-none-');
    try {
      await assert.rejects(denoiseSpeech(new Int16Array(1600), empty, 1), /GTCRN.*enhancement/s);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('LiveSession noise_reduction', () => {
  /** A session whose looks are recorded and answered with one word, and the events it sent. */
  function session(): { live: LiveSession; looks: LiveLook[]; events: ServerEvent[]; settled: () => Promise<void> } {
    const looks: LiveLook[] = [];
    const events: ServerEvent[] = [];
    const recognition: Pick<LiveRecognition, 'look'> = {
      look: async (_files, plan): Promise<LiveWindowResult> => {
        const { pcm, look } = plan({ waiting: 0 });
        looks.push(look);
        return {
          durationSeconds: pcm.length / 16000,
          speech: [],
          text: 'word',
          words: [{ start: 0, end: 0.2, text: 'word' }],
          language: 'en',
        };
      },
    };
    const live = new LiveSession({
      send: (event) => events.push(event),
      recognition,
      files: { dir: '/nonexistent', touch: () => undefined, release: async () => undefined },
      resolveModel: async () => '/models/whisper/model.bin',
      form: 'ga',
    });
    const settled = async (): Promise<void> => {
      for (
        let i = 0;
        i < 100 && !events.some((e) => e.type === 'conversation.item.input_audio_transcription.completed');
        i += 1
      )
        await new Promise((resolve) => setImmediate(resolve));
    };
    return { live, looks, events, settled };
  }
  const update = (noiseReduction: unknown): string =>
    JSON.stringify({
      type: 'session.update',
      session: {
        type: 'transcription',
        audio: {
          input: { format: { type: 'audio/pcm', rate: 16000 }, turn_detection: null, noise_reduction: noiseReduction },
        },
      },
    });
  const audio = JSON.stringify({ type: 'input_audio_buffer.append', audio: Buffer.alloc(16000).toString('base64') });

  for (const [setting, denoise] of [
    [{ type: 'near_field' }, true],
    [{ type: 'far_field' }, true],
    [null, false],
  ] as const) {
    it(`${JSON.stringify(setting)}: the engine is ${denoise ? '' : 'not '}asked to clean the audio, and the utterance completes`, async () => {
      const { live, looks, events, settled } = session();
      await live.open();
      await live.receive(update(setting));
      assert.deepEqual(
        events.filter((e) => e.type === 'error'),
        [],
      );
      await live.receive(audio);
      await live.receive(JSON.stringify({ type: 'input_audio_buffer.commit' }));
      await settled();
      assert.equal(looks.length, 1);
      assert.equal(looks[0].denoise === true, denoise);
      assert.equal(
        events.find((e) => e.type === 'conversation.item.input_audio_transcription.completed')?.transcript,
        'word',
      );
      await live.close();
    });
  }
});
