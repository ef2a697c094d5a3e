import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AGES, GENDERS, NARRATOR } from '../../src/cast/attribution-prompt';
import type { CastFile } from '../../src/cast/cast-file';
import { runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp';
import { TINY_LLM_NAME, tinyLlmModel } from '../helpers/tiny-llm';

const CHAPTER = `# The Visit

Ann opened the door. “Hello there, Bob,” she said. “You are late again.”

Bob shrugged and took off his coat. “The train stopped twice,” he answered.

The kettle began to sing in the kitchen.
`;

const QUOTES = ['Hello there, Bob,', 'You are late again.', 'The train stopped twice,'];

describe('cli.js audiobook --cast auto (the tiny random GGUF model in the engine, espeak-ng and Flite voices)', () => {
  let dir: string;
  let dataDir: string;
  let chapter: string;
  const castFile = (): string => path.join(dir, '.speech', 'cast.json');
  before(async () => {
    dir = await tempDir('speech-cli-cast-');
    dataDir = path.join(dir, 'data');
    await mkdir(path.join(dataDir, 'models', 'llm'), { recursive: true });
    await copyFile(await tinyLlmModel(), path.join(dataDir, 'models', 'llm', TINY_LLM_NAME));
    chapter = path.join(dir, 'chapter.md');
    await writeFile(chapter, CHAPTER);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('casts every quote into a well-formed .speech/cast.json and reads the book with the cast', async () => {
    const run = await runCli([
      'audiobook',
      chapter,
      '--out',
      path.join(dir, 'book.mp3'),
      '--format',
      'mp3',
      '--cast',
      'auto',
      '--data-dir',
      dataDir,
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Cast 3 quoted lines \(3 asked of the model\) into .*cast\.json/);
    const cast = JSON.parse(await readFile(castFile(), 'utf8')) as CastFile;
    assert.deepEqual(Object.keys(cast.lines).sort(), [...QUOTES].sort());
    for (const line of Object.values(cast.lines)) {
      assert.ok(
        line.speaker === NARRATOR || cast.characters[line.speaker],
        `the speaker ${line.speaker} is a character or the narrator`,
      );
    }
    for (const character of Object.values(cast.characters)) {
      assert.ok(GENDERS.includes(character.gender) && AGES.includes(character.age));
      assert.ok(character.voice === null || typeof character.voice === 'string');
    }
    assert.match(run.stdout, /Wrote .*book\.mp3: 1 chapters\./);
  });

  it("reads each cast quote by its speaker's voice: a voice the library lacks is refused before synthesis", async () => {
    const cast = JSON.parse(await readFile(castFile(), 'utf8')) as CastFile;
    const speaker = 'Zed';
    cast.characters[speaker] = { voice: 'No Such Voice', gender: 'male', age: 'adult' };
    cast.lines['The train stopped twice,'] = { speaker, corrected: true };
    await writeFile(castFile(), JSON.stringify(cast));
    const run = await runCli([
      'audiobook',
      chapter,
      '--out',
      path.join(dir, 'book2.mp3'),
      '--format',
      'mp3',
      '--cast',
      'auto',
      '--data-dir',
      dataDir,
    ]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /No voice "No Such Voice"/);
    assert.match(run.stdout, /Cast 3 quoted lines \(0 asked of the model\)/, 'lines already cast are not asked again');
    const kept = JSON.parse(await readFile(castFile(), 'utf8')) as CastFile;
    assert.deepEqual(kept.lines['The train stopped twice,'], { speaker, corrected: true }, 'the correction is kept');
    assert.equal(kept.characters[speaker].voice, 'No Such Voice', "the writer's voice is kept");
  });

  it('refuses --cast with anything but auto', async () => {
    const run = await runCli([
      'audiobook',
      chapter,
      '--out',
      path.join(dir, 'book3.mp3'),
      '--format',
      'mp3',
      '--cast',
      'maybe',
      '--data-dir',
      dataDir,
    ]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--cast takes auto/);
  });
});
