// Bundles the VS Code suite (test/vscode/index.ts and what it imports) into out/test/vscode/index.js, and the
// source folder's short pass (test/vscode/source-only.ts) beside it: the modules the workbench loads as
// extensionTestsPath. `vscode` stays external: the host provides it.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
await build({
  entryPoints: {
    index: path.join(root, 'test/vscode/index.ts'),
    'source-only': path.join(root, 'test/vscode/source-only.ts'),
  },
  outdir: path.join(root, 'out/test/vscode'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['vscode'],
  sourcemap: 'inline',
  logLevel: 'warning',
});
