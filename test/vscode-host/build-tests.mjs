// Bundles the VS Code suite (test/vscode/index.ts and what it imports) into out/test/vscode/index.js,
// the module the workbench loads as extensionTestsPath. `vscode` stays external: the host provides it.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
await build({
  entryPoints: [path.join(root, 'test/vscode/index.ts')],
  outfile: path.join(root, 'out/test/vscode/index.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['vscode'],
  sourcemap: 'inline',
  logLevel: 'warning',
});
