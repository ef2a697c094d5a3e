import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LEXICON_SCHEMA_FILE, lexiconJsonSchema } from '../../src/lexicon/lexicon-json-schema';
import { mergeLexicons } from '../../src/lexicon/merge-lexicon';
import {
  entryFromInput,
  entryProblem,
  readWorkspaceLexicon,
  withEntry,
  workspaceLexiconPath,
  writeWorkspaceLexicon,
} from '../../src/lexicon/workspace-lexicon';

describe('mergeLexicons', () => {
  it('the winning entry replaces the base entry for the same words in any case and spacing, and the same language', () => {
    const base = [
      { text: 'Koa', say: 'koh ah' },
      { text: 'New  York', say: 'noo york' },
      { text: 'GIF', say: 'jif' },
    ];
    const winning = [
      { text: 'koa', say: 'ko wah' },
      { text: 'new york', say: 'nyork' },
    ];
    assert.deepEqual(mergeLexicons(base, winning), [...winning, base[2]]);
  });

  it('keeps both when the languages differ, and comes first so it wins ties when applied', () => {
    const base = [
      { text: 'Paris', say: 'pa ree', language: 'fr' },
      { text: 'Paris', say: 'parris' },
    ];
    const winning = [{ text: 'paris', say: 'PAIR is', language: 'en' }];
    assert.deepEqual(mergeLexicons(base, winning), [winning[0], ...base]);
    assert.deepEqual(mergeLexicons(base, [{ text: 'PARIS', say: 'x', language: 'FR' }]), [
      { text: 'PARIS', say: 'x', language: 'FR' },
      base[1],
    ]);
  });

  it('without winning entries the base is unchanged', () => {
    const base = [{ text: 'Koa', say: 'koh ah' }];
    assert.deepEqual(mergeLexicons(base, []), base);
    assert.deepEqual(mergeLexicons([], base), base);
  });
});

describe('the workspace lexicon file', () => {
  let folder: string;
  let file: string;
  before(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'ws-lexicon-'));
    file = workspaceLexiconPath(folder);
  });
  after(() => rm(folder, { recursive: true, force: true }));

  it("the JSON Schema shipped for the editor equals the contract's lexicon schema", async () => {
    const shipped = JSON.parse(await readFile(path.join(import.meta.dirname, '../..', LEXICON_SCHEMA_FILE), 'utf8'));
    assert.deepEqual(
      shipped,
      JSON.parse(JSON.stringify(lexiconJsonSchema())),
      'run: node --import tsx scripts/write-lexicon-schema.ts',
    );
    const packageJson = JSON.parse(await readFile(path.join(import.meta.dirname, '../../package.json'), 'utf8'));
    assert.deepEqual(packageJson.contributes.jsonValidation, [
      { fileMatch: '**/.speech/lexicon.json', url: `./${LEXICON_SCHEMA_FILE}` },
    ]);
  });

  it('no file is an empty lexicon; an invalid one is no lexicon and a problem naming the file and the bad entry', async () => {
    assert.deepEqual(await readWorkspaceLexicon(file), { entries: [] });
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ entries: [{ text: 'Koa', say: 'koh ah' }, { text: 'GIF' }] }));
    const bad = await readWorkspaceLexicon(file);
    assert.deepEqual(bad.entries, []);
    assert.equal(bad.problem, `${file}: entries[1]: needs say (a respelling) or phonemes`);
    await writeFile(file, '{ "entries": [');
    assert.match((await readWorkspaceLexicon(file)).problem ?? '', /is not JSON/);
  });

  it('Save adds an entry, creating .speech/, then replaces the same word and keeps the other entries as written', async () => {
    await rm(path.dirname(file), { recursive: true, force: true });
    await writeWorkspaceLexicon(file, await withEntry(file, { text: 'Koa', say: 'koh ah' }));
    await writeWorkspaceLexicon(file, await withEntry(file, { text: 'GIF', phonemes: 'dZIf', alphabet: 'espeak' }));
    await writeWorkspaceLexicon(file, await withEntry(file, { text: 'koa', say: 'ko wah' }));
    const written = await readFile(file, 'utf8');
    assert.equal(
      written,
      `${JSON.stringify(
        {
          entries: [
            { text: 'koa', say: 'ko wah' },
            { text: 'GIF', phonemes: 'dZIf', alphabet: 'espeak' },
          ],
        },
        null,
        2,
      )}\n`,
    );
    assert.deepEqual(
      (await readWorkspaceLexicon(file)).entries.map((e) => e.text),
      ['koa', 'GIF'],
    );
  });

  it('Save refuses to overwrite a file that is not a valid lexicon', async () => {
    await writeFile(file, '{ "entries": [ { "text": "x" } ] }');
    await assert.rejects(
      withEntry(file, { text: 'Koa', say: 'koh ah' }),
      /Fix the lexicon first: .*entries\[0\]: needs say/,
    );
    assert.equal(await readFile(file, 'utf8'), '{ "entries": [ { "text": "x" } ] }');
  });

  it('what the user types becomes a respelling, or espeak-ng phonemes after "phonemes:"', () => {
    assert.deepEqual(entryFromInput('Koa', '  koh ah '), { text: 'Koa', say: 'koh ah' });
    assert.deepEqual(entryFromInput('GIF', 'Phonemes: dZIf'), { text: 'GIF', phonemes: 'dZIf', alphabet: 'espeak' });
    assert.equal(
      entryProblem(entryFromInput('GIF', 'phonemes: dZ]]If')),
      'phonemes: must not contain any of [ ] < > &',
    );
    assert.equal(entryProblem(entryFromInput('GIF', 'jif')), undefined);
  });
});
