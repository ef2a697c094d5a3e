/**
 * SSML in the audiobook manuscript through `node dist/cli.js audiobook`, for each engine family the tests have
 * (espeak-ng real; sherpa-onnx VITS and Kokoro with random weights): a ```ssml block is spoken with its break
 * measured in the book's audio, what the voice ignored is printed, and malformed markup stops the export
 * naming the chapter, line and column.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { runCli } from '../helpers/cli';
import { useWorkDirs } from '../helpers/temp';
import { testModel } from '../helpers/test-models';

const workDir = useWorkDirs();

const RATE = 16_000;
const synthetic = (file: string): string => testModel(path.join('sherpa-synthetic', file));

/** The book's audio as 16 kHz mono samples. */
async function decoded(file: string): Promise<Int16Array> {
  const { stdout } = await promisify(execFile)(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-ac', '1', '-ar', String(RATE), '-f', 's16le', '-'],
    { encoding: 'buffer', maxBuffer: 1 << 28 },
  );
  return new Int16Array(stdout.buffer, stdout.byteOffset, stdout.length / 2);
}

/** Silent runs (|sample| ≤ quiet) of at least `min` seconds inside the audio, in seconds. */
function silences(samples: Int16Array, quiet: number, min: number): number[] {
  const runs: number[] = [];
  let start = -1;
  let heard = false;
  for (let i = 0; i < samples.length; i++) {
    if (Math.abs(samples[i]) <= quiet) {
      if (heard && start < 0) start = i;
    } else {
      if (start >= 0 && i - start >= min * RATE) runs.push((i - start) / RATE);
      heard = true;
      start = -1;
    }
  }
  return runs;
}

const FAMILIES: Array<{ name: string; voice: string; install?: (dataDir: string) => Promise<void> }> = [
  { name: 'espeak-ng', voice: 'English (America)' },
  {
    name: 'sherpa-onnx VITS',
    voice: 'Book Piper',
    install: (dataDir) =>
      handInstalled(
        dataDir,
        'book-piper',
        {
          name: 'Book Piper',
          engine: 'vits',
          languageCode: 'en-US',
          files: { model: 'model.onnx', tokens: 'tokens.txt' },
        },
        { 'model.onnx': synthetic('vits-piper/model.onnx'), 'tokens.txt': synthetic('vits-piper/tokens.txt') },
      ),
  },
  {
    name: 'sherpa-onnx Kokoro',
    voice: 'Book Kokoro',
    install: (dataDir) =>
      handInstalled(
        dataDir,
        'book-kokoro',
        {
          name: 'Book Kokoro',
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
];

async function handInstalled(
  dataDir: string,
  folder: string,
  voiceJson: Record<string, unknown>,
  files: Record<string, string>,
): Promise<void> {
  const dir = path.join(dataDir, 'models', 'tts', folder);
  await mkdir(dir, { recursive: true });
  for (const [name, source] of Object.entries(files)) await copyFile(source, path.join(dir, name));
  await writeFile(path.join(dir, 'voice.json'), JSON.stringify(voiceJson));
}

const BOOK = `# One

\`\`\`ssml
<speak>
  <p>Before the pause.</p><break time="2s"/><p>After it, the <say-as interpret-as="ordinal">2</say-as> part.
  <prosody rate="slow" pitch="+20%">Slowly.</prosody> <sub alias="for example">e.g.</sub>
  <phoneme alphabet="ipa" ph="wɪn">Nguyen</phoneme>.</p>
</speak>
\`\`\`
`;

describe('node dist/cli.js audiobook with SSML blocks', () => {
  for (const family of FAMILIES) {
    it(`${family.name}: speaks a \`\`\`ssml block, its 2 s break in the book's audio, and prints what the voice ignored`, async () => {
      const dir = await workDir();
      const dataDir = path.join(dir, 'data');
      await family.install?.(dataDir);
      await writeFile(path.join(dir, 'book.md'), BOOK);
      const out = path.join(dir, 'book.mp3');
      const run = await runCli([
        'audiobook',
        path.join(dir, 'book.md'),
        '--out',
        out,
        '--format',
        'mp3',
        '--voice',
        family.voice,
        '--data-dir',
        dataDir,
      ]);
      assert.equal(run.code, 0, run.stderr);
      if (family.name === 'espeak-ng') assert.doesNotMatch(run.stdout, /Not honoured/);
      else assert.match(run.stdout, /^Not honoured: ssml phoneme: .*take text, not phonemes/m);
      // MP3 smears the edges of a silence a little: the break is measured at a low level, within ±20 ms.
      const long = silences(await decoded(out), 60, 1).filter((run) => run > 1.5);
      assert.equal(long.length, 1, `silences over 1 s: ${long.join(', ')}`);
      assert.ok(Math.abs(long[0] - 2) <= 0.02, `the 2 s break measured ${long[0]} s`);
    });
  }

  it('stops on malformed SSML, naming the chapter, line and column', async () => {
    const dir = await workDir();
    await writeFile(path.join(dir, 'book.md'), '# Bad\n\n```ssml\n<speak>\n  <break time="soon"/>\n</speak>\n```\n');
    const run = await runCli([
      'audiobook',
      path.join(dir, 'book.md'),
      '--out',
      path.join(dir, 'book.m4b'),
      '--data-dir',
      path.join(dir, 'data'),
    ]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Chapter "Bad", an SSML block: SSML line 2, column 3: <break time="soon">/);
  });
});
