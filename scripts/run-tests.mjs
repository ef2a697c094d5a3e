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
const run = (testFiles, env = process.env) =>
  spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...testFiles], { stdio: 'inherit', env }).status ?? 1;

// The STT suites run a second time on the other recognizer, Parakeet, with its generated synthetic model
// (test/helpers/stt-engine.ts), when the whole suite runs or when one of them is asked for.
const PARAKEET_PASS = ['test/engine/stt.test.ts', 'test/api/stt-jobs.test.ts'];
const parakeetFiles = PARAKEET_PASS.filter((file) => files.includes(file));

const status = run(files);
const parakeetStatus = parakeetFiles.length > 0 && process.env.SPEECH_TEST_STT_ENGINE === undefined
  ? (console.log(`\nParakeet pass: ${parakeetFiles.join(', ')}`), run(parakeetFiles, { ...process.env, SPEECH_TEST_STT_ENGINE: 'parakeet' }))
  : 0;
process.exit(status || parakeetStatus);
