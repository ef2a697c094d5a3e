// Runs every test file with node's test runner (Node 20 takes no globs), TypeScript through tsx.
// `--wasm-ffmpeg` runs the STT and TTS API suites a second time with the WebAssembly ffmpeg instead of the
// system one (SPEECH_STUDIO_FFMPEG=wasm: nothing decodes or encodes through a system ffmpeg); with no
// suites named, both passes run.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

// The API suites that decode uploads and encode outputs, end to end through the engine process.
const WASM_FFMPEG_SUITES = [
  'test/api/stt-jobs.test.ts', 'test/api/stt-upload.test.ts', 'test/api/tts-jobs.test.ts', 'test/api/tts-options.test.ts',
  'test/openai/speech.test.ts', 'test/openai/transcriptions.test.ts', 'test/cli/audiobook.test.ts',
  // GET /capabilities says which ffmpeg is in use.
  'test/api/security.test.ts',
];

const runFiles = (files, env = process.env) =>
  spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], { stdio: 'inherit', env }).status ?? 1;
const runWasmPass = () => {
  console.log('\n# The STT and TTS API suites again, on the WebAssembly ffmpeg (SPEECH_STUDIO_FFMPEG=wasm)\n');
  return runFiles(WASM_FFMPEG_SUITES, { ...process.env, SPEECH_STUDIO_FFMPEG: 'wasm' });
};

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--wasm-ffmpeg') process.exit(runWasmPass());

// Every folder under test/ holds node:test suites, except the helpers and the suites that run inside VS Code.
const NOT_NODE_SUITES = new Set(['helpers', 'vscode', 'vscode-host']);
const suites = args.length > 0
  ? args
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
// The STT suites run a second time on the other recognizer, Parakeet, with its generated synthetic model
// (test/helpers/stt-engine.ts), when the whole suite runs or when one of them is asked for.
const PARAKEET_PASS = ['test/engine/stt.test.ts', 'test/api/stt-jobs.test.ts'];
const parakeetFiles = PARAKEET_PASS.filter((file) => files.includes(file));

const status = runFiles(files);
const parakeetStatus = parakeetFiles.length > 0 && process.env.SPEECH_TEST_STT_ENGINE === undefined
  ? (console.log(`\nParakeet pass: ${parakeetFiles.join(', ')}`), runFiles(parakeetFiles, { ...process.env, SPEECH_TEST_STT_ENGINE: 'parakeet' }))
  : 0;
// The WebAssembly ffmpeg pass runs when the whole suite does (npm test), not for a chosen folder or file.
process.exit(Math.max(status, parakeetStatus, args.length === 0 ? runWasmPass() : 0));
