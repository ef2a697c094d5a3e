// Runs every test file with node's test runner (Node 20 takes no globs), TypeScript through tsx.
// `--wasm-ffmpeg` runs, a second time, the tests of the API, OpenAI and audiobook suites in which ffmpeg
// decodes an upload or encodes an output, with the WebAssembly ffmpeg instead of the system one
// (SPEECH_STUDIO_FFMPEG=wasm: nothing decodes or encodes through a system ffmpeg); with no suites named, both
// passes run. At the end it prints each pass's wall time and the slowest files (the summed time of each file's
// top-level tests, from scripts/test-file-times.mjs), so CI shows where time goes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// The WebAssembly pass proves that each door's decoding and encoding works end to end on that ffmpeg, not
// every other assertion of those suites again: validation, queues, auth and engine faults do not touch ffmpeg,
// and the main pass proves them. Each suite's tests that ffmpeg takes part in, by name (node's
// --test-name-pattern, anchored; a test runs when its name or its suite's matches). The other containers'
// decoding on this ffmpeg is proven sample by sample in test/engine/stt-decode.test.ts and
// test/engine/wasm-ffmpeg.test.ts, which the main pass runs.
const WASM_FFMPEG_TESTS = {
  // GET /capabilities says which ffmpeg is in use.
  'test/api/security.test.ts': ['GET /capabilities names the ffmpeg in use'],
  'test/api/stt-jobs.test.ts': [
    'transcribes mp3 into all five transcript formats',
    'transcribes an MP4 with a video track',
    'keeps timestamps relative to the original file when cropping',
    'fails a file that is not media',
  ],
  'test/api/tts-options.test.ts': [
    'writes wav, mp3, aac and flac that ffprobe reads back',
    'reports the bitrate the encoder used',
    'narrates an SRT to MP3',
  ],
  'test/openai/speech.test.ts': [
    // WAV and PCM are written by the engine itself, not by ffmpeg.
    'speaks (mp3|opus|aac|flac):',
    'streams: the first audio bytes arrive',
    'cancels the job when the client goes away mid-stream',
  ],
  'test/openai/transcriptions.test.ts': [
    'answers json with the text, as a named Local API job',
    'answers a file that is not media',
  ],
  // Each export kind's ffmpeg steps once. The paragraph cache holds WAVs joined without ffmpeg (a re-export runs
  // the same steps as the first), and Ctrl+C stops the export while it synthesizes, before any ffmpeg step.
  'test/cli/audiobook.test.ts': [
    'makes one M4B with a chapter marker',
    "reads a folder's .md files in name order as one book, and writes MP3",
    'writes one tagged MP3 per chapter',
  ],
};

// Each pass keeps its usual output (spec on a terminal, TAP otherwise) and also writes its per-file times here.
let timesDir;
const timesReporter = pathToFileURL(path.resolve('scripts/test-file-times.mjs')).href;
// Loaded into every test file's process; in test/unit/ files it fails a child process, a port, WebAssembly, a
// native addon or a read of the shared test models (test/unit is pure).
const pureUnitGuard = pathToFileURL(path.resolve('scripts/pure-unit-guard.mjs')).href;
const passes = [];

function runFiles(label, files, env = process.env, namePatterns = []) {
  timesDir ??= mkdtempSync(path.join(os.tmpdir(), 'speech-studio-test-times-'));
  const timesFile = path.join(timesDir, `${passes.length}.jsonl`);
  const started = Date.now();
  const status =
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        pureUnitGuard,
        '--test',
        '--test-concurrency=2',
        `--test-reporter=${process.stdout.isTTY ? 'spec' : 'tap'}`,
        '--test-reporter-destination=stdout',
        `--test-reporter=${timesReporter}`,
        `--test-reporter-destination=${timesFile}`,
        ...namePatterns.map((pattern) => `--test-name-pattern=^${pattern}`),
        ...files,
      ],
      { stdio: 'inherit', env },
    ).status ?? 1;
  passes.push({ label, timesFile, seconds: (Date.now() - started) / 1000 });
  return status;
}

/** Each pass's wall time, then the ten files whose tests took longest (a file run in two passes counts twice). */
function printTimeSummary() {
  const perFile = new Map();
  for (const pass of passes) {
    const lines = statSync(pass.timesFile, { throwIfNoEntry: false })
      ? readFileSync(pass.timesFile, 'utf8').split('\n')
      : [];
    for (const line of lines.filter(Boolean)) {
      const { file, ms, nesting } = JSON.parse(line);
      if (nesting !== 0) continue;
      const key = `${path.relative(process.cwd(), file)}${passes.length > 1 ? ` (${pass.label})` : ''}`;
      perFile.set(key, (perFile.get(key) ?? 0) + ms / 1000);
    }
  }
  console.log('\n# Where the time went');
  for (const pass of passes) console.log(`#   ${pass.label} pass: ${pass.seconds.toFixed(0)} s wall`);
  console.log("# The 10 slowest files (their tests' summed durations; two files run at a time):");
  for (const [file, seconds] of [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 10)) {
    console.log(`#   ${seconds.toFixed(1).padStart(6)} s  ${file}`);
  }
  if (timesDir) rmSync(timesDir, { recursive: true, force: true });
}

function finish(status) {
  printTimeSummary();
  process.exit(status);
}

const runWasmPass = () => {
  console.log(
    '\n# The tests that decode or encode through a door, again on the WebAssembly ffmpeg (SPEECH_STUDIO_FFMPEG=wasm)\n',
  );
  const patterns = Object.values(WASM_FFMPEG_TESTS).flat();
  const status = runFiles(
    'wasm-ffmpeg',
    Object.keys(WASM_FFMPEG_TESTS),
    { ...process.env, SPEECH_STUDIO_FFMPEG: 'wasm' },
    patterns,
  );
  return Math.max(status, checkEveryPatternRan(passes.at(-1), patterns));
};

/** A renamed test would leave its name pattern matching nothing, and the pass would go on proving less in silence. */
function checkEveryPatternRan(pass, patterns) {
  const lines = statSync(pass.timesFile, { throwIfNoEntry: false }) ? readFileSync(pass.timesFile, 'utf8') : '';
  const ran = lines
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((test) => !test.skipped)
    .map((test) => test.name);
  const unmatched = patterns.filter((pattern) => !ran.some((name) => new RegExp(`^${pattern}`).test(name)));
  for (const pattern of unmatched)
    console.error(
      `# The ${pass.label} pass ran no test named like /^${pattern}/: was it renamed? Update WASM_FFMPEG_TESTS.`,
    );
  return unmatched.length > 0 ? 1 : 0;
}

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--wasm-ffmpeg') finish(runWasmPass());

// Every folder under test/ holds node:test suites, except the helpers and the suites that run inside VS Code.
const NOT_NODE_SUITES = new Set(['helpers', 'vscode', 'vscode-host']);
const suites =
  args.length > 0
    ? args
    : readdirSync('test', { withFileTypes: true })
        .filter((d) => d.isDirectory() && !NOT_NODE_SUITES.has(d.name))
        .map((d) => path.join('test', d.name))
        .sort();

function testFiles(entry) {
  if (!statSync(entry, { throwIfNoEntry: false })) return [];
  if (statSync(entry).isFile()) return [entry];
  return readdirSync(entry, { withFileTypes: true })
    .flatMap((d) =>
      d.isDirectory()
        ? testFiles(path.join(entry, d.name))
        : d.name.endsWith('.test.ts')
          ? [path.join(entry, d.name)]
          : [],
    )
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

const status = runFiles('main', files);
const parakeetStatus =
  parakeetFiles.length > 0 && process.env.SPEECH_TEST_STT_ENGINE === undefined
    ? (console.log(`\nParakeet pass: ${parakeetFiles.join(', ')}`),
      runFiles('parakeet', parakeetFiles, { ...process.env, SPEECH_TEST_STT_ENGINE: 'parakeet' }))
    : 0;
// The WebAssembly ffmpeg pass runs when the whole suite does (npm test), not for a chosen folder or file.
finish(Math.max(status, parakeetStatus, args.length === 0 ? runWasmPass() : 0));
