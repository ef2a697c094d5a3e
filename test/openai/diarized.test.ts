/**
 * POST /audio/transcriptions with response_format=diarized_json and known speakers, through the stock
 * `openai` SDK, on the real engine with the synthetic whisper and diarization models. Their random weights
 * make voices meaningless, so the naming mechanism is checked with the engine's fixed-embedding test hook
 * (every voice the same: the first speakers take the known names in order), and the shape without it.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import OpenAI, { toFile } from 'openai';
import { FIXED_EMBEDDING_ENV } from '../../src/config/engine-environment';
import { installDiarizationModels } from '../helpers/diarization-models';
import { installSttModel } from '../helpers/stt-engine';
import { testModel } from '../helpers/test-models';
import { startTestServer, type TestServer } from '../helpers/server';
import { wavHeader } from '../helpers/wav';

async function installModels(dataDir: string): Promise<void> {
  await installSttModel(dataDir);
  await installDiarizationModels(dataDir);
}

/** A data URL of a WAV cut from a 16 kHz mono 16-bit WAV file (its 44-byte header reused with new sizes). */
async function clipDataUrl(file: string, fromSeconds: number, toSeconds: number): Promise<string> {
  const bytes = await readFile(file);
  const dataAt = bytes.indexOf('data') + 8; // the first "data" is the chunk id in these files (no text chunk before)
  const samples = bytes.subarray(
    dataAt + Math.round(fromSeconds * 16000) * 2,
    dataAt + Math.round(toSeconds * 16000) * 2,
  );
  return `data:audio/wav;base64,${Buffer.concat([wavHeader(samples.length), samples]).toString('base64')}`;
}

const LETTER = /^[A-Z]+$/;

describe('POST /audio/transcriptions response_format=diarized_json', () => {
  let t: TestServer;
  let client: OpenAI;
  const clip = testModel('audio/multispeaker/1-two-speakers-en.wav');

  before(async () => {
    // The engine starts with the first job and takes this process's environment then.
    process.env[FIXED_EMBEDDING_ENV] = '1';
    t = await startTestServer();
    await installModels(t.dataDir);
    client = new OpenAI({ baseURL: t.base, apiKey: 'unused' });
  });
  after(async () => {
    await t.dispose();
    delete process.env[FIXED_EMBEDDING_ENV];
  });

  it('names the speakers whose voice matches a known reference, cut from the clip itself', async () => {
    const result: any = await client.audio.transcriptions.create({
      file: await toFile(await readFile(clip), 'two-speakers.wav'),
      model: 'gpt-4o-transcribe-diarize',
      response_format: 'diarized_json',
      known_speaker_names: ['Ann', 'Bob'],
      known_speaker_references: [await clipDataUrl(clip, 0, 3), await clipDataUrl(clip, 8, 11)],
    } as any);
    assert.equal(result.task, 'transcribe');
    assert.equal(typeof result.text, 'string');
    assert.ok(result.duration > 15 && result.duration < 17);
    assert.ok(result.segments.length > 0);
    const speakers = [...new Set(result.segments.map((s: any) => s.speaker))];
    assert.equal(result.segments.find((s: any) => s.text.length > 0)?.speaker, 'Ann', JSON.stringify(speakers));
    if (speakers.length >= 2) assert.ok(speakers.includes('Bob'), JSON.stringify(speakers));
    for (const speaker of speakers)
      assert.ok(speaker === 'Ann' || speaker === 'Bob' || LETTER.test(speaker as string), String(speaker));
    for (const [index, segment] of result.segments.entries()) {
      assert.deepEqual(Object.keys(segment).sort(), ['end', 'id', 'speaker', 'start', 'text', 'type']);
      assert.equal(segment.type, 'transcript.text.segment');
      assert.equal(segment.id, `seg_${index}`);
      assert.ok(segment.start <= segment.end);
    }
  });

  it('refuses names without a clip each, a name that is a generic label, and diarized_json for translations', async () => {
    const file = await toFile(await readFile(testModel('audio/jfk.wav')), 'jfk.wav');
    const refusal = async (fields: Record<string, unknown>, translate = false): Promise<any> => {
      const call = translate
        ? client.audio.translations.create({ file, model: 'whisper-1', ...fields })
        : client.audio.transcriptions.create({
            file,
            model: 'whisper-1',
            response_format: 'diarized_json',
            ...fields,
          } as any);
      return call.then(
        () => assert.fail('accepted'),
        (error: any) => error,
      );
    };
    const unmatched = await refusal({
      known_speaker_names: ['Ann', 'Bob'],
      known_speaker_references: [await clipDataUrl(clip, 0, 3)],
    });
    assert.equal(unmatched.status, 422);
    assert.match(unmatched.message, /known_speaker_references/);
    const generic = await refusal({
      known_speaker_names: ['Speaker 2'],
      known_speaker_references: [await clipDataUrl(clip, 0, 3)],
    });
    assert.equal(generic.status, 422);
    const notAudio = await refusal({
      known_speaker_names: ['Ann'],
      known_speaker_references: ['data:text/plain;base64,aGk='],
    });
    assert.equal(notAudio.status, 422);
    const translation = await refusal({ response_format: 'diarized_json' }, true);
    assert.equal(translation.status, 422);
  });
});

describe('diarized_json without known speakers', () => {
  it('labels speakers A, B, … in order of appearance', async () => {
    const t = await startTestServer();
    try {
      await installModels(t.dataDir);
      const client = new OpenAI({ baseURL: t.base, apiKey: 'unused' });
      const result: any = await client.audio.transcriptions.create({
        file: await toFile(await readFile(testModel('audio/multispeaker/1-two-speakers-en.wav')), 'two.wav'),
        model: 'whisper-1',
        response_format: 'diarized_json',
      } as any);
      const order = [...new Set(result.segments.map((s: any) => s.speaker))];
      assert.ok(order.length > 0);
      assert.deepEqual(
        order,
        order.map((_s, i) => String.fromCharCode(65 + i)),
      );
    } finally {
      await t.dispose();
    }
  });
});
