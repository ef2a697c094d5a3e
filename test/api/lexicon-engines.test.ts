/**
 * The lexicon changes the audio of every engine family through the Local API: speaking a sentence with a
 * respelling entry gives the very samples of speaking the respelled sentence, and differs from speaking it
 * without the entry. Each job runs on a fresh server, so no engine carries state from an earlier synthesis.
 * The neural voices are random-weight stand-ins: what they say is noise, but their front end is real.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { voiceIdFor } from '../../src/voices/voice-id';
import { firstJobAudio } from '../helpers/lexicon';
import { request, type TestServer } from '../helpers/server';
import { testModel } from '../helpers/test-models';

interface Family {
  name: string;
  /** Puts the voice in place on a fresh server and answers its id. */
  install: (t: TestServer) => Promise<string>;
}

const synthetic = (file: string): string => testModel(path.join('sherpa-synthetic', file));

/** A hand-installed sherpa-onnx voice: its files copied into `<data-dir>/models/tts/<folder>/` with a voice.json. */
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
  const voice = page.items.find((v: { name: string; availability: string }) => v.name.includes(String(voiceJson.name)));
  assert.ok(
    voice,
    `${String(voiceJson.name)} is not listed: ${JSON.stringify(page.items.map((v: { name: string }) => v.name))}`,
  );
  assert.equal(voice.availability, 'ready');
  return voice.id;
}

const FAMILIES: Family[] = [
  { name: 'espeak-ng', install: async () => voiceIdFor('espeak-ng', 'gmw/en-US') },
  { name: 'Flite', install: async () => voiceIdFor('flite', 'slt') },
  {
    name: 'Piper (VITS) through sherpa-onnx',
    install: (t) =>
      handInstalled(
        t,
        'lexicon-piper',
        {
          name: 'Lexicon Piper',
          engine: 'vits',
          languageCode: 'en-US',
          files: { model: 'model.onnx', tokens: 'tokens.txt' },
        },
        { 'model.onnx': synthetic('vits-piper/model.onnx'), 'tokens.txt': synthetic('vits-piper/tokens.txt') },
      ),
  },
  {
    name: 'Kokoro through sherpa-onnx',
    install: (t) =>
      handInstalled(
        t,
        'lexicon-kokoro',
        {
          name: 'Lexicon Kokoro',
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
  },
  {
    name: 'Matcha through sherpa-onnx',
    install: (t) =>
      handInstalled(
        t,
        'lexicon-matcha',
        {
          name: 'Lexicon Matcha',
          engine: 'matcha',
          languageCode: 'en-US',
          files: { acousticModel: 'acoustic.onnx', vocoder: 'vocoder.onnx', tokens: 'tokens.txt' },
        },
        {
          'acoustic.onnx': synthetic('matcha/acoustic.onnx'),
          'vocoder.onnx': synthetic('matcha/vocoder.onnx'),
          'tokens.txt': synthetic('matcha/tokens.txt'),
        },
      ),
  },
];

const UNTRIMMED = { trimSilence: false };

describe('a lexicon entry changes the audio of every engine family', () => {
  for (const family of FAMILIES) {
    it(`${family.name}: the word with its entry sounds exactly like its respelling, and unlike the word`, async () => {
      const lexicon = { entries: [{ text: 'Nguyen', say: 'win' }] };
      const withEntry = await firstJobAudio(family.install, lexicon, 'Mister Nguyen is here.', UNTRIMMED);
      const respelled = await firstJobAudio(family.install, null, 'Mister win is here.', UNTRIMMED);
      const plain = await firstJobAudio(family.install, null, 'Mister Nguyen is here.', UNTRIMMED);
      assert.deepEqual(withEntry.job.result.lexicon, { applied: ['Nguyen'], skipped: [] });
      assert.ok(
        withEntry.audio.equals(respelled.audio),
        `${withEntry.audio.length} vs ${respelled.audio.length} bytes`,
      );
      assert.ok(!withEntry.audio.equals(plain.audio), 'the entry changed nothing');
    });
  }
});
