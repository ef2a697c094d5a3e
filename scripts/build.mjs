// Bundles the three entry points into dist/: the extension, the engine worker (child process) and the CLI.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';

// Packages that load native addons, WebAssembly or data files relative to themselves stay in node_modules.
const external = ['vscode', '@echogarden/espeak-ng-emscripten', '@fugood/whisper.node', 'sherpa-onnx-node'];

await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: {
    extension: 'src/extension.ts',
    'engine-worker': 'src/engine/worker.ts',
    cli: 'src/cli.ts',
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
