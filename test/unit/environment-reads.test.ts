/**
 * The environment is read in the configuration builders (src/config/) and the entries (composition roots) only,
 * each named in docs/configuration.md, and every SPEECH_STUDIO_* variable the code knows is documented there: a
 * new `process.env` read deep in the core, the engine or a door (in any spelling), a test hook named outside
 * the configuration builders, or an undocumented variable, fails here.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const root = path.join(__dirname, '..', '..');
const configuration = readFileSync(path.join(root, 'docs', 'configuration.md'), 'utf8');

/** The entries (composition roots) that configuration.md names as readers of `process.env`; nothing else in src/ but src/config/. */
const DOCUMENTED_READERS = [
  'src/cli.ts',
  'src/host/local-core.ts',
  'src/relay/cli.ts',
  'src/editor/server-controller.ts',
];

/** A read of the environment however it is spelled: `process.env`, `process['env']`, `{ env } = process`. */
const ENV_READ =
  /\bprocess\s*(?:\?\.|\.)\s*env\b|\bprocess\s*\[\s*['"`]env['"`]\s*\]|\{[^}]*\benv\b[^}]*\}\s*=\s*(?:globalThis\.)?process\b/;

/** Test hooks are environment variables too, but only the configuration builders may name them: product code gets them as options. */
const TEST_HOOK = /\bSPEECH_STUDIO_TEST_[A-Z_]+\b/;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

const sources = sourceFiles('src').map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));

describe('environment reads', () => {
  it('process.env appears only in src/config/ and the documented entries', () => {
    const readers = sources.filter(({ text }) => ENV_READ.test(text)).map(({ file }) => file);
    assert.ok(
      readers.some((file) => file.startsWith('src/config/')) && readers.includes('src/cli.ts'),
      'finds the readers it checks',
    );
    assert.deepEqual(
      readers.filter((file) => !file.startsWith('src/config/') && !DOCUMENTED_READERS.includes(file)),
      [],
    );
    // The list stays honest: an entry that no longer reads the environment leaves it.
    assert.deepEqual(
      DOCUMENTED_READERS.filter((file) => !readers.includes(file)),
      [],
    );
  });

  it('test hooks are named only in src/config/, which parses them for the entries to hand down', () => {
    const namers = sources
      .filter(({ file, text }) => !file.startsWith('src/config/') && TEST_HOOK.test(text))
      .map(({ file }) => file);
    assert.deepEqual(namers, []);
    assert.ok(
      sources.some(({ file, text }) => file.startsWith('src/config/') && TEST_HOOK.test(text)),
      'finds the hooks it checks',
    );
  });

  it("the engine process's own configuration is read only inside the engine: the server side gets it passed down", () => {
    const PROCESS_CONFIG =
      /import\s*\{[^}]*\b(?:engineConfig|configureEngine)\b[^}]*\}\s*from\s*'[^']*engine-api\/engine-config'/;
    const allowed = (file: string): boolean => file.startsWith('src/engine/');
    const users = sources.filter(({ text }) => PROCESS_CONFIG.test(text)).map(({ file }) => file);
    assert.ok(users.includes('src/engine/worker.ts'), 'finds the readers it checks');
    assert.deepEqual(
      users.filter((file) => !allowed(file)),
      [],
    );
  });

  it('configuration.md names each composition root that reads the environment', () => {
    assert.deepEqual(
      DOCUMENTED_READERS.filter((file) => !configuration.includes(`\`${file}\``)),
      [],
    );
  });

  it('every SPEECH_STUDIO_* variable of the code is documented in configuration.md', () => {
    const variables = new Set(
      sources.flatMap(({ text }) => [...text.matchAll(/\bSPEECH_STUDIO_[A-Z_]+\b/g)].map((m) => m[0])),
    );
    assert.ok(variables.has('SPEECH_STUDIO_FFMPEG'), 'finds the variables it checks');
    assert.deepEqual([...variables].filter((name) => !configuration.includes(`\`${name}`)).sort(), []);
  });
});
