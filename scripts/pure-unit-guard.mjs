// Keeps test/unit pure, so `npm run check` stays quick: loaded into every test file's process by
// scripts/run-tests.mjs (`--import`), and active only in the files under test/unit/. There, starting a child
// process (ffmpeg, Chromium, the engine), listening on a port, loading WebAssembly (espeak-ng, Flite, Pico,
// Sonic, the WebAssembly ffmpeg) or a native addon (sherpa-onnx, whisper.cpp, llama.cpp), or reading the shared
// test models throws, and the file fails even when the code under test caught the error. Such a test belongs in
// test/process/ or in the folder of what it exercises (CONTRIBUTING.md). Checked at run time rather than by
// reading imports: a pure-looking import can reach ffmpeg three modules down.
import childProcess from 'node:child_process';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const testFile = process.argv.slice(1).find((arg) => /\.test\.[cm]?[jt]s$/.test(arg));
const inUnit =
  testFile !== undefined &&
  path.relative(path.join(root, 'test', 'unit'), path.resolve(testFile)).split(path.sep)[0] !== '..';

// The TypeScript loader itself (tsx's lexer, the esbuild service tsx starts) and node's own HTTP parser may do
// what a test may not: allowed when the call comes straight from them (every require passes through tsx, so a
// frame of tsx further down the stack proves nothing).
const LOADER_FRAMES = [
  `${path.sep}node_modules${path.sep}tsx${path.sep}`,
  `${path.sep}node_modules${path.sep}esbuild${path.sep}`,
  'node:internal/deps/undici',
];
const THIS_FILE = fileURLToPath(import.meta.url);

/** Where the shared test models are (as test/helpers/test-models.ts finds them). */
const modelsDir = path.resolve(process.env.SPEECH_TEST_MODELS ?? path.join(root, '..', 'shared', 'models'));

const violations = [];

function fromLoader() {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 20;
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  Error.stackTraceLimit = limit;
  const caller = frames.find((frame) => !frame.includes(THIS_FILE)) ?? '';
  return LOADER_FRAMES.some((frame) => caller.includes(frame));
}

function refuse(what) {
  const message = `test/unit is pure: ${path.relative(root, testFile)} ${what}. Move the test to test/process/ or to the folder of what it exercises (CONTRIBUTING.md).`;
  violations.push(message);
  return new Error(message);
}

function guard(owner, name, what, allow = () => false) {
  const original = owner[name];
  if (typeof original !== 'function') return;
  owner[name] = function guarded(...args) {
    if (!allow(args) && !fromLoader()) throw refuse(what(args));
    return original.apply(this, args);
  };
}

const inModels = (file) => {
  if (typeof file !== 'string' && !(file instanceof URL) && !Buffer.isBuffer(file)) return false;
  const resolved = path.resolve(file instanceof URL ? fileURLToPath(file) : String(file));
  return resolved === modelsDir || resolved.startsWith(modelsDir + path.sep);
};

if (inUnit) {
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
    guard(childProcess, name, (args) => `starts a child process (${name} ${String(args[0])})`);
  }
  guard(net.Server.prototype, 'listen', () => 'listens on a port');
  guard(process, 'dlopen', (args) => `loads a native addon (${path.basename(String(args[1]))})`);
  for (const name of ['compile', 'instantiate', 'compileStreaming', 'instantiateStreaming']) {
    const original = WebAssembly[name];
    if (typeof original !== 'function') continue;
    WebAssembly[name] = function guarded(...args) {
      if (!fromLoader()) return Promise.reject(refuse('loads WebAssembly'));
      return original.apply(this, args);
    };
  }
  WebAssembly.Module = new Proxy(WebAssembly.Module, {
    construct(target, args) {
      if (!fromLoader()) throw refuse('loads WebAssembly');
      return new target(...args);
    },
  });
  // Reading, copying or linking a file of the shared test models (testModel() only names a path).
  const elsewhere = (args) => !inModels(args[0]);
  for (const name of [
    'readFile',
    'readFileSync',
    'open',
    'openSync',
    'createReadStream',
    'copyFile',
    'copyFileSync',
    'cp',
    'cpSync',
    'symlink',
    'symlinkSync',
    'link',
    'linkSync',
  ]) {
    guard(fs, name, (args) => `reads the shared test models (${name} ${String(args[0])})`, elsewhere);
  }
  for (const name of ['readFile', 'open', 'copyFile', 'cp', 'symlink', 'link']) {
    guard(fs.promises, name, (args) => `reads the shared test models (${name} ${String(args[0])})`, elsewhere);
  }
  syncBuiltinESMExports();
  // A test may catch the error (a fallback, a "not installed" branch) and pass: the file fails anyway.
  process.on('exit', () => {
    if (violations.length === 0) return;
    for (const message of new Set(violations)) process.stderr.write(`${message}\n`);
    process.exitCode = 1;
  });
}
