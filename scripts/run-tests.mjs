// Runs every test file with node's test runner (Node 20 takes no globs), TypeScript through tsx.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

// Every folder under test/ holds node:test suites, except the helpers and the suites that run inside VS Code.
const NOT_NODE_SUITES = new Set(['helpers', 'vscode', 'vscode-host']);
const suites = process.argv.slice(2).length > 0
  ? process.argv.slice(2)
  : readdirSync('test', { withFileTypes: true })
      .filter((d) => d.isDirectory() && !NOT_NODE_SUITES.has(d.name))
      .map((d) => path.join('test', d.name))
      .sort();

function testFiles(entry) {
  if (!statSync(entry, { throwIfNoEntry: false })) return [];
  if (statSync(entry).isFile()) return [entry];
  return readdirSync(entry, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? testFiles(path.join(entry, d.name)) : d.name.endsWith('.test.ts') ? [path.join(entry, d.name)] : []))
    .sort();
}

const files = suites.flatMap(testFiles);
if (files.length === 0) {
  console.error(`No test files under ${suites.join(', ')}.`);
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
