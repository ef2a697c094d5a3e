/**
 * docs/architecture.md and CONTRIBUTING.md match the folders: every folder of src/, test/ and media/ and every
 * script is named where a newcomer looks for it, every path they name exists, and the doors they list are the
 * doors the dependency check (.dependency-cruiser.cjs) keeps apart. A new or moved folder fails here until the
 * docs say what lives in it.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const root = path.join(__dirname, '..', '..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');
const architecture = read('docs/architecture.md');
const contributing = read('CONTRIBUTING.md');

/** Every folder under `dir` (relative to the repository), depth first. */
function foldersUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .flatMap((entry) => [`${dir}/${entry.name}`, ...foldersUnder(`${dir}/${entry.name}`)]);
}

/**
 * Whether `doc` names `folder` (e.g. `src/engine/align`): by its full path, or (below the top level) as
 * `align/` in backticks, as the doc does inside its parent's paragraph.
 */
function names(doc: string, folder: string): boolean {
  if (doc.includes(`${folder}/`)) return true;
  return folder.split('/').length > 2 && doc.includes(`\`${path.basename(folder)}/`);
}

/** The doors of the dependency rule `no-door-to-door`: `^src/(local-api|openai|…)/` → its alternatives. */
function doorsOfDependencyRules(): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const config = require(path.join(root, '.dependency-cruiser.cjs')) as {
    forbidden: Array<{ name: string; from: { path: string } }>;
  };
  const rule = config.forbidden.find((candidate) => candidate.name === 'no-door-to-door');
  const alternatives = rule && /^\^src\/\(([^)]+)\)\/$/.exec(rule.from.path)?.[1];
  assert.ok(alternatives, 'the no-door-to-door rule names its doors as ^src/(a|b|…)/');
  return alternatives.split('|').sort();
}

/** The folders in the second column of architecture.md's door table. */
function doorsOfArchitecture(): string[] {
  const lines = architecture.split('\n');
  const start = lines.findIndex((line) => line.startsWith('| door | folder |'));
  assert.ok(start >= 0, 'architecture.md has a door table');
  const rows = lines.slice(start + 2).filter((_, i, all) => all.slice(0, i + 1).every((line) => line.startsWith('|')));
  return rows.flatMap((row) => [...row.split('|')[2].matchAll(/`src\/([a-z-]+)\/`/g)].map((m) => m[1])).sort();
}

describe('the architecture and contributing guides match the folders', () => {
  it('architecture.md names every folder of src/', () => {
    assert.deepEqual(
      foldersUnder('src').filter((folder) => !names(architecture, folder)),
      [],
    );
  });

  it('architecture.md names every folder of media/ and every script', () => {
    const scripts = readdirSync(path.join(root, 'scripts')).filter((name) => !name.startsWith('.'));
    assert.deepEqual(
      [...foldersUnder('media'), ...scripts].filter((entry) => !architecture.includes(`${path.basename(entry)}`)),
      [],
    );
  });

  it('CONTRIBUTING.md names every folder of test/', () => {
    const folders = readdirSync(path.join(root, 'test'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `test/${entry.name}/`);
    assert.deepEqual(
      folders.filter((folder) => !contributing.includes(folder)),
      [],
    );
  });

  it('every src/, test/, scripts/ or bench/ path the guides name exists', () => {
    const stale: string[] = [];
    for (const [doc, text] of [
      ['docs/architecture.md', architecture],
      ['CONTRIBUTING.md', contributing],
      ['docs/core-rules.md', read('docs/core-rules.md')],
    ] as const) {
      for (const [, named] of text.matchAll(/`((?:src|test|scripts|bench)\/[\w./-]+)`/g)) {
        if (!existsSync(path.join(root, named))) stale.push(`${doc}: ${named}`);
      }
    }
    assert.deepEqual(stale, []);
  });

  it('the doors of architecture.md are the doors the dependency check keeps apart', () => {
    assert.deepEqual(doorsOfArchitecture(), doorsOfDependencyRules());
  });

  it('finds what it checks', () => {
    assert.ok(foldersUnder('src').includes('src/engine/align') && names(architecture, 'src/engine/align'));
    assert.ok(!names('`src/jobs/` and `tts/`', 'src/engine/align'), 'a folder the text does not name is caught');
    assert.ok(doorsOfArchitecture().includes('realtime') && doorsOfArchitecture().includes('local-api'));
  });
});
