/**
 * The environment is read in the configuration builders (src/config/) and the composition roots only, each
 * exception named in docs/configuration.md, and every SPEECH_STUDIO_* variable the code knows is documented
 * there: a new `process.env` read deep in the core, or an undocumented variable, fails here.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const root = path.join(__dirname, '..', '..');
const configuration = readFileSync(path.join(root, 'docs', 'configuration.md'), 'utf8');

/** The composition roots and the one test hook that configuration.md names as readers of `process.env`. */
const DOCUMENTED_READERS = ['src/cli.ts', 'src/host/local-core.ts', 'src/relay/cli.ts', 'src/editor/server-controller.ts', 'src/jobs/verify-admission.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

const sources = sourceFiles('src').map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));

describe('environment reads', () => {
  it('process.env appears only in src/config/ and the documented composition roots', () => {
    const readers = sources.filter(({ text }) => /\bprocess\.env\b/.test(text)).map(({ file }) => file);
    assert.ok(readers.some((file) => file.startsWith('src/config/')) || readers.includes('src/cli.ts'), 'finds the readers it checks');
    assert.deepEqual(readers.filter((file) => !file.startsWith('src/config/') && !DOCUMENTED_READERS.includes(file)), []);
  });

  it('configuration.md names each composition root that reads the environment', () => {
    assert.deepEqual(DOCUMENTED_READERS.filter((file) => !configuration.includes(`\`${file}\``)), []);
  });

  it('every SPEECH_STUDIO_* variable of the code is documented in configuration.md', () => {
    const variables = new Set(sources.flatMap(({ text }) => [...text.matchAll(/\bSPEECH_STUDIO_[A-Z_]+\b/g)].map((m) => m[0])));
    assert.ok(variables.has('SPEECH_STUDIO_FFMPEG'), 'finds the variables it checks');
    assert.deepEqual([...variables].filter((name) => !configuration.includes(`\`${name}`)).sort(), []);
  });
});
