// Checks that a packaged .vsix carries every package its bundles load at run time: each of esbuild's
// externals (scripts/build.mjs) that a bundle in the .vsix's dist/ requires, resolves or imports must be in
// the .vsix's node_modules. Usage: node check-vsix.mjs <file.vsix>
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const vsix = process.argv[2];
const listing = new Set(execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\n'));
const buildScript = readFileSync(path.join(root, 'scripts/build.mjs'), 'utf8');
const externals = new Set([...(/const external = \[([^\]]*)\]/.exec(buildScript)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]));
if (externals.size === 0) throw new Error('found no externals in scripts/build.mjs');
const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

// Externals that only the TypeScript sources use (the tests run the engine from source through tsx).
const SOURCE_ONLY = new Set(['tsx']);
const bundles = [...listing].filter((name) => /^extension\/dist\/[^/]+\.js$/.test(name)).map((name) => name.slice('extension/'.length));
const needed = new Set();
for (const bundle of bundles) {
  const code = readFileSync(path.join(root, bundle), 'utf8');
  for (const [, specifier] of code.matchAll(/\b(?:require(?:\.resolve)?|import)\(\s*["']([^"'./][^"']*)["']\s*\)/g)) {
    const name = packageOf(specifier);
    if (externals.has(name) && name !== 'vscode' && !SOURCE_ONLY.has(name)) needed.add(name);
  }
}
const missing = [...needed].filter((name) => !listing.has(`extension/node_modules/${name}/package.json`));
if (!listing.has('extension/dist/extension.js') || !listing.has('extension/dist/engine-worker.js')) missing.push('dist/ bundles');
if (missing.length > 0) {
  console.error(`The .vsix lacks what its bundles load: ${missing.join(', ')}. Add them to .vscodeignore's allowlist.`);
  process.exit(1);
}
console.log(`The .vsix carries the ${needed.size} packages its bundles load: ${[...needed].sort().join(', ')}`);
