// The folders under node_modules that one installed package needs at run time: itself and its `dependencies`,
// recursively, resolved as Node resolves them (nested copies first, then each parent's node_modules).
// Used by the packager (scripts/package.mjs) to carry node-llama-cpp's JavaScript dependencies.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

function resolveFolder(name, fromFolder) {
  for (let dir = fromFolder; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Paths relative to `root` (e.g. `node_modules/chalk`, `node_modules/node-llama-cpp/node_modules/ansi-regex`)
 * of `name` and its dependency closure; optional dependencies are left to the caller (platform binaries).
 */
export function dependencyClosure(root, name) {
  const folders = new Set();
  const visit = (folder) => {
    if (folders.has(folder)) return;
    folders.add(folder);
    const manifest = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      const found = resolveFolder(dependency, folder);
      if (!found) throw new Error(`${dependency}, a dependency of ${path.relative(root, folder)}, is not installed`);
      visit(found);
    }
  };
  const start = path.join(root, 'node_modules', name);
  if (!existsSync(path.join(start, 'package.json'))) throw new Error(`${name} is not installed`);
  visit(start);
  return [...folders].map((folder) => path.relative(root, folder));
}
