// `npm run package`: one .vsix per VS Code platform target, each with exactly its platform's native parts.
// Usage: node scripts/package.mjs [--out DIR] [--target T ...]   (default: every target, into packages/)
// Other platforms' native packages come from the npm registry with `npm pack` (cached in build/npm-packs/).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dependencyClosure } from './package-closure.mjs';
import { STAGED } from './package-contents.mjs';
import { PLATFORMS, WHISPER_FALLBACK_VERSION } from './platforms.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => args.flatMap((a, i) => (a === name ? [args[i + 1]] : []));
const outDir = path.resolve(option('--out')[0] ?? path.join(root, 'packages'));
const targets = option('--target').length > 0 ? option('--target') : Object.keys(PLATFORMS);
for (const target of targets)
  if (!PLATFORMS[target])
    throw new Error(`Unknown target ${target}; expected one of ${Object.keys(PLATFORMS).join(', ')}`);

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const installedVersion = (name) =>
  JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
const packs = path.join(root, 'build', 'npm-packs');

/** A package's folder: the installed one when it is this machine's, else its registry tarball unpacked. */
function packageFolder(name, version) {
  const installed = path.join(root, 'node_modules', name);
  if (existsSync(installed) && installedVersion(name) === version) return installed;
  const folder = path.join(packs, `${name.replace('/', '+')}@${version}`);
  if (!existsSync(path.join(folder, 'package.json'))) {
    mkdirSync(packs, { recursive: true });
    const tarball = execFileSync('npm', ['pack', `${name}@${version}`, '--silent', '--pack-destination', packs], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .pop();
    mkdirSync(folder, { recursive: true });
    execFileSync('tar', ['xzf', path.join(packs, tarball), '-C', folder, '--strip-components=1']);
  }
  return folder;
}

/** packageFolder, or undefined when the registry has no such version (npm pack fails). */
function publishedFolder(name, version) {
  try {
    return packageFolder(name, version);
  } catch {
    return undefined;
  }
}

const copy = (from, to, filter) => cpSync(from, to, { recursive: true, dereference: true, filter });

execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
mkdirSync(outDir, { recursive: true });
const whisperInstalled = installedVersion('@fugood/whisper.node');
const sherpaVersion = installedVersion('sherpa-onnx-node');
const llamaVersion = installedVersion('node-llama-cpp');
// node-llama-cpp is ESM that imports its whole dependency tree at load (its build and download helpers too),
// so the tree comes along; of its own files only dist/ and one file of llama/ (the prebuilt binaries' release
// name, read by getLlama) are needed: the 35 MB of llama.cpp sources serve builds, which never run here.
const llamaTree = dependencyClosure(root, 'node-llama-cpp');
const LLAMA_KEPT = new Set(['llama', path.join('llama', 'binariesGithubRelease.json')]);
const llamaFileFilter = (src) => {
  const inside = path.relative(path.join(root, 'node_modules', 'node-llama-cpp'), src);
  return !(inside === 'llama' || inside.startsWith(`llama${path.sep}`)) || LLAMA_KEPT.has(inside);
};

for (const target of targets) {
  const platform = PLATFORMS[target];
  const stage = path.join(root, 'build', `stage-${target}`);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  // README and the pages it links to, the media, grammars and schemas, and the bundles (package-contents.mjs).
  for (const entry of STAGED) copy(path.join(root, entry), path.join(stage, entry));
  // Everything else is bundled into dist/: vsce's dependency walk sees only the packages loaded from disk.
  const runtime = Object.fromEntries(
    Object.entries(pkg.dependencies).filter(
      ([name]) =>
        name.startsWith('@echogarden/') ||
        name === '@fugood/whisper.node' ||
        name === '@ffmpeg/core' ||
        (name === 'sherpa-onnx-node' && platform.sherpa) ||
        (name === 'node-llama-cpp' && publishedFolder(platform.llama, llamaVersion)),
    ),
  );
  writeFileSync(
    path.join(stage, 'package.json'),
    JSON.stringify({ ...pkg, dependencies: runtime, devDependencies: {} }, null, 2),
  );
  const modules = path.join(stage, 'node_modules');
  copy(path.join(root, 'node_modules', '@echogarden'), path.join(modules, '@echogarden'));
  // ffmpeg compiled to WebAssembly (the same file for every platform): decoding and encoding without a system ffmpeg.
  copy(
    path.join(root, 'node_modules', '@ffmpeg', 'core'),
    path.join(modules, '@ffmpeg', 'core'),
    (src) => !src.includes(`${path.sep}dist${path.sep}esm`),
  );
  copy(
    path.join(root, 'node_modules', '@fugood', 'whisper.node'),
    path.join(modules, '@fugood', 'whisper.node'),
    (src) => !src.includes(`${path.sep}node_modules${path.sep}@fugood${path.sep}whisper.node${path.sep}node_modules`),
  );
  const whisperVersion = existsSync(path.join(root, 'node_modules', platform.whisper))
    ? whisperInstalled
    : WHISPER_FALLBACK_VERSION;
  copy(packageFolder(platform.whisper, whisperVersion), path.join(modules, platform.whisper));
  // The binding names every platform's build as optional at its own version: the staged copy names the one it carries.
  const bindingManifest = path.join(modules, '@fugood', 'whisper.node', 'package.json');
  const binding = JSON.parse(readFileSync(bindingManifest, 'utf8'));
  writeFileSync(
    bindingManifest,
    JSON.stringify({ ...binding, optionalDependencies: { [platform.whisper]: whisperVersion } }, null, 2),
  );
  if (platform.sherpa) {
    copy(path.join(root, 'node_modules', 'sherpa-onnx-node'), path.join(modules, 'sherpa-onnx-node'));
    copy(packageFolder(platform.sherpa, sherpaVersion), path.join(modules, platform.sherpa));
  }
  // The binaries must be the JavaScript's own version; a platform whose build of it is not on the registry gets no
  // language model (translation says so in one sentence) rather than a mismatched one.
  const llamaBinaries = publishedFolder(platform.llama, llamaVersion);
  if (llamaBinaries) {
    for (const folder of llamaTree)
      copy(
        path.join(root, folder),
        path.join(stage, folder),
        folder === 'node_modules/node-llama-cpp' ? llamaFileFilter : undefined,
      );
    copy(llamaBinaries, path.join(modules, platform.llama));
    const llamaManifest = path.join(modules, 'node-llama-cpp', 'package.json');
    const llamaPackage = JSON.parse(readFileSync(llamaManifest, 'utf8'));
    writeFileSync(
      llamaManifest,
      JSON.stringify({ ...llamaPackage, optionalDependencies: { [platform.llama]: llamaVersion } }, null, 2),
    );
  }
  // The repository's .vscodeignore allow-lists linux-x64's native packages by name: this target's instead.
  const ignore = readFileSync(path.join(stage, '.vscodeignore'), 'utf8')
    .replaceAll('@fugood/node-whisper-linux-x64', platform.whisper)
    .replaceAll('sherpa-onnx-linux-x64', platform.sherpa ?? 'sherpa-onnx-none');
  // node-llama-cpp's tree is allowed by folder, as the packager found it (see package-closure.mjs).
  const llamaAllowed = llamaBinaries
    ? [...llamaTree.map((folder) => `!${folder}/**`), `!node_modules/${platform.llama}/**`].join('\n')
    : '';
  writeFileSync(path.join(stage, '.vscodeignore'), `${ignore}\n${llamaAllowed}\n`);
  const vsix = path.join(outDir, `${pkg.name}-${target}-${pkg.version}.vsix`);
  execFileSync(
    'npx',
    [
      '--no-install',
      'vsce',
      'package',
      '--target',
      target,
      '--allow-missing-repository',
      '--no-rewrite-relative-links',
      '--out',
      vsix,
    ],
    { cwd: stage, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  console.log(
    `${path.relative(process.cwd(), vsix)}: whisper.cpp ${whisperVersion}${platform.sherpa ? `, sherpa-onnx ${sherpaVersion}` : ', no sherpa-onnx (none published for this platform)'}, ${llamaBinaries ? `node-llama-cpp ${llamaVersion} (${platform.llama})` : `no language model (${platform.llama} ${llamaVersion} is not on the registry)`}`,
  );
  rmSync(stage, { recursive: true, force: true });
}
console.log(
  `Packaged ${targets.length} target(s) into ${path.relative(process.cwd(), outDir) || '.'}: ${readdirSync(outDir).filter((f) => f.endsWith('.vsix')).length} .vsix file(s).`,
);
