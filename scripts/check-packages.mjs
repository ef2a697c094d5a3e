// Proves what each platform package holds: every native file's header is its target's (ELF x86-64/aarch64,
// Mach-O x86_64/arm64, PE x64/arm64), no other platform's native package is inside, and every package the
// bundles load at run time is there. Usage: node scripts/check-packages.mjs <folder of .vsix | file.vsix …>
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeTargets } from './package-contents.mjs';
import { ALL_NATIVE_PACKAGES, PLATFORMS } from './platforms.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NATIVE_FILE = /\.(?:node|dll|exe|dylib|so(?:\.\d+)*)$/;

/** The format and architectures a binary's header declares (a universal Mach-O may declare several). */
export function binaryHeader(bytes) {
  if (bytes.length >= 20 && bytes.readUInt32BE(0) === 0x7f454c46) {
    const machine = bytes.readUInt16LE(18);
    return { format: 'elf', archs: [machine === 0x3e ? 'x64' : machine === 0xb7 ? 'arm64' : `elf-machine-${machine}`] };
  }
  if (bytes.length >= 8 && bytes.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = bytes.readUInt32LE(4);
    return { format: 'macho', archs: [cpu === 0x01000007 ? 'x64' : cpu === 0x0100000c ? 'arm64' : `macho-cpu-${cpu}`] };
  }
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0xcafebabe) {
    const count = bytes.readUInt32BE(4);
    const archs = [];
    for (let i = 0; i < count && 8 + i * 20 + 4 <= bytes.length; i++) {
      const cpu = bytes.readUInt32BE(8 + i * 20);
      archs.push(cpu === 0x01000007 ? 'x64' : cpu === 0x0100000c ? 'arm64' : `macho-cpu-${cpu}`);
    }
    return { format: 'macho', archs };
  }
  if (bytes.length >= 0x40 && bytes.readUInt16LE(0) === 0x5a4d) {
    const pe = bytes.readUInt32LE(0x3c);
    if (pe + 6 <= bytes.length && bytes.readUInt32LE(pe) === 0x00004550) {
      const machine = bytes.readUInt16LE(pe + 4);
      return {
        format: 'pe',
        archs: [machine === 0x8664 ? 'x64' : machine === 0xaa64 ? 'arm64' : `pe-machine-${machine}`],
      };
    }
  }
  return { format: 'unknown', archs: [] };
}

/** The packages the bundles in dist/ load from node_modules (esbuild's externals that they require). */
function packagesTheBundlesLoad(listing) {
  const buildScript = readFileSync(path.join(root, 'scripts', 'build.mjs'), 'utf8');
  const externals = new Set(
    [...(/const external = \[([^\]]*)\]/.exec(buildScript)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]),
  );
  if (externals.size === 0) throw new Error('found no externals in scripts/build.mjs');
  const packageOf = (specifier) =>
    specifier
      .split('/')
      .slice(0, specifier.startsWith('@') ? 2 : 1)
      .join('/');
  const needed = new Set();
  for (const bundle of listing.filter((name) => /^extension\/dist\/[^/]+\.js$/.test(name))) {
    const code = readFileSync(path.join(root, bundle.slice('extension/'.length)), 'utf8');
    for (const [, specifier] of code.matchAll(/\b(?:require(?:\.resolve)?|import)\(\s*["']([^"'./][^"']*)["']\s*\)/g)) {
      const name = packageOf(specifier);
      // tsx: only when the engine runs from TypeScript sources (the tests).
      if (externals.has(name) && name !== 'vscode' && name !== 'tsx') needed.add(name);
    }
  }
  return needed;
}

/** ffmpeg compiled to WebAssembly, for machines without a system ffmpeg: its worker, its loader and its module. */
const WASM_FFMPEG = 'extension/node_modules/@ffmpeg/core/dist/umd/ffmpeg-core.wasm';
function wasmFfmpegProblems(vsix, listing) {
  const needed = [
    'extension/dist/media-wasm-worker.js',
    'extension/node_modules/@ffmpeg/core/package.json',
    'extension/node_modules/@ffmpeg/core/dist/umd/ffmpeg-core.js',
    WASM_FFMPEG,
  ];
  const missing = needed
    .filter((name) => !listing.includes(name))
    .map((name) => `lacks ${name} (decoding without a system ffmpeg)`);
  if (missing.length > 0) return missing;
  const wasm = execFileSync('unzip', ['-p', vsix, WASM_FFMPEG], { maxBuffer: 128 * 1024 * 1024 });
  // A WebAssembly module starts with "\0asm"; a Git LFS pointer or a truncated copy would not.
  if (wasm.readUInt32BE(0) !== 0x0061736d || wasm.length < 20 * 1024 * 1024)
    return [`${WASM_FFMPEG} is not the WebAssembly ffmpeg (${wasm.length} bytes)`];
  return [];
}

/**
 * The extension's page is README: it must be in the package, and so must every file it shows or links to by a
 * relative address (screenshots, docs/, CONTRIBUTING.md, bench/README.md), or that link is dead where users read it.
 */
export function documentationProblems(listing, readme = readFileSync(path.join(root, 'README.md'), 'utf8')) {
  const problems = [];
  if (!listing.some((name) => name.toLowerCase() === 'extension/readme.md'))
    problems.push("lacks README.md, the extension's page");
  for (const target of readmeTargets(readme)) {
    if (target.toLowerCase() === 'readme.md') continue;
    if (!listing.includes(`extension/${target}`))
      problems.push(
        `lacks ${target}, which README ${/\.(png|jpe?g|gif|svg|webp)$/i.test(target) ? 'shows' : 'links to'}`,
      );
  }
  return problems;
}

/** The problems of one package; empty when it holds exactly what its target needs. */
export function checkPackage(vsix) {
  const manifest = execFileSync('unzip', ['-p', vsix, 'extension.vsixmanifest'], { encoding: 'utf8' });
  const target = /TargetPlatform="([^"]+)"/.exec(manifest)?.[1];
  const platform = PLATFORMS[target];
  if (!platform) return { target, problems: [`no known TargetPlatform in its manifest (${target})`], natives: 0 };
  const listing = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\n')
    .filter(Boolean);
  const problems = [];
  const natives = listing.filter((name) => NATIVE_FILE.test(name));
  for (const name of natives) {
    const bytes = execFileSync('unzip', ['-p', vsix, name], { maxBuffer: 512 * 1024 * 1024 });
    const header = binaryHeader(bytes);
    if (header.format !== platform.format || !header.archs.includes(platform.arch)) {
      problems.push(
        `${name} is ${header.format} ${header.archs.join('+') || '?'}, not ${platform.format} ${platform.arch}`,
      );
    }
  }
  const carried = new Set(
    listing.map((name) => /^extension\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(name)?.[1]).filter(Boolean),
  );
  for (const name of carried) {
    if (ALL_NATIVE_PACKAGES.test(name) && ![platform.whisper, platform.sherpa, platform.llama].includes(name))
      problems.push(`carries another platform's ${name}`);
  }
  for (const name of [platform.whisper, platform.sherpa].filter(Boolean))
    if (!carried.has(name)) problems.push(`lacks its native package ${name}`);
  // The language model comes whole or not at all: node-llama-cpp with its platform's binaries and the one file
  // of llama/ it reads before loading them (the llama.cpp sources beside it stay out). linux-x64's is required:
  // the VS Code suite runs translation from that package. The others lack it while the registry has no build of
  // the installed version for them (scripts/package.mjs says so).
  const llamaRequired = platform.llama === '@node-llama-cpp/linux-x64';
  if (carried.has('node-llama-cpp') || llamaRequired) {
    if (!carried.has(platform.llama)) problems.push(`lacks its native package ${platform.llama}`);
    if (!listing.includes('extension/node_modules/node-llama-cpp/llama/binariesGithubRelease.json'))
      problems.push('lacks node-llama-cpp/llama/binariesGithubRelease.json');
  } else if (carried.has(platform.llama)) problems.push(`carries ${platform.llama} without node-llama-cpp`);
  const llamaSources = listing.filter(
    (name) =>
      name.startsWith('extension/node_modules/node-llama-cpp/llama/') && !name.endsWith('/binariesGithubRelease.json'),
  );
  if (llamaSources.length > 0) problems.push(`carries node-llama-cpp's build sources (${llamaSources[0]} …)`);
  // Without a sherpa-onnx build for the platform, the engine reports neural voices and diarization as unavailable.
  const optional = new Set([
    ...(platform.sherpa ? [] : ['sherpa-onnx-node']),
    ...(llamaRequired ? [] : ['node-llama-cpp']),
  ]);
  for (const name of packagesTheBundlesLoad(listing))
    if (!carried.has(name) && !optional.has(name)) problems.push(`lacks ${name}, which the bundles load`);
  // cli.js too: Export Audiobook… runs its audiobook command as a child process.
  if (!['extension.js', 'engine-worker.js', 'cli.js'].every((name) => listing.includes(`extension/dist/${name}`)))
    problems.push('lacks the dist/ bundles');
  problems.push(...wasmFfmpegProblems(vsix, listing));
  problems.push(...documentationProblems(listing));
  return { target, problems, natives: natives.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2).flatMap((entry) =>
    statSync(entry).isDirectory()
      ? readdirSync(entry)
          .filter((f) => f.endsWith('.vsix'))
          .map((f) => path.join(entry, f))
      : [entry],
  );
  if (files.length === 0) throw new Error('no .vsix given');
  let failed = 0;
  for (const file of files) {
    const { target, problems, natives } = checkPackage(file);
    if (problems.length > 0) failed++;
    console.log(
      `${problems.length ? '✘' : '✔'} ${path.basename(file)} (${target}): ${natives} native files${problems.length ? `\n    ${problems.join('\n    ')}` : ' of its own platform, nothing of another'}`,
    );
  }
  process.exit(failed > 0 ? 1 : 0);
}
