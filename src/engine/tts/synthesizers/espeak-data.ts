/**
 * sherpa-onnx's Piper, Kokoro, Kitten and Matcha front ends read espeak-ng's phoneme data from a folder.
 * That data already ships with us, packed inside `@echogarden/espeak-ng-emscripten` (espeak-ng.data, with
 * the file list in espeak-ng.js), so it is unpacked once into a folder of the data directory instead of
 * being downloaded or required from the system. Unpacking goes to a temporary folder renamed at the end, so a
 * crash or a second engine process never sees half a folder.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const PACKAGE = '@echogarden/espeak-ng-emscripten';
const PACKED_ROOT = '/usr/share/espeak-ng-data/';
const MARKER = '.speech-studio-source';

interface PackedFile {
  name: string;
  start: number;
  end: number;
}

/** The files listed in espeak-ng.js's `loadPackage({files:[…]})`, relative to espeak-ng-data/. */
export function packedFileList(loaderSource: string): PackedFile[] {
  const files: PackedFile[] = [];
  for (const match of loaderSource.matchAll(/filename:"([^"]+)",start:(\d+),end:(\d+)/g)) {
    const [, name, start, end] = match;
    if (!name.startsWith(PACKED_ROOT)) continue;
    const relative = name.slice(PACKED_ROOT.length);
    if (relative.split('/').some((part) => part === '..' || part === '')) continue;
    files.push({ name: relative, start: Number(start), end: Number(end) });
  }
  return files;
}

/**
 * Makes sure `dir` holds espeak-ng's data (phontab, phondata, dictionaries, voices) from the installed
 * package, unpacking it if needed; returns `dir`.
 */
export async function ensureEspeakData(dir: string): Promise<string> {
  const packageDir = path.dirname(require.resolve(`${PACKAGE}/package.json`));
  const { version } = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const source = `${PACKAGE}@${version}`;
  const marker = path.join(dir, MARKER);
  if (existsSync(marker) && (await readFile(marker, 'utf8').catch(() => '')) === source) return dir;

  const files = packedFileList(await readFile(path.join(packageDir, 'espeak-ng.js'), 'utf8'));
  if (!files.some((file) => file.name === 'phontab')) {
    throw new Error(`${PACKAGE} ${version} does not contain espeak-ng's phoneme data in the expected layout.`);
  }
  const data = await readFile(path.join(packageDir, 'espeak-ng.data'));
  const staging = `${dir}.${process.pid}.partial`;
  await rm(staging, { recursive: true, force: true });
  try {
    for (const file of files) {
      const target = path.join(staging, ...file.name.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, data.subarray(file.start, file.end));
    }
    await writeFile(path.join(staging, MARKER), source);
    await rm(dir, { recursive: true, force: true });
    await mkdir(path.dirname(dir), { recursive: true });
    await rename(staging, dir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    // Another engine process may have finished the same folder first.
    if (existsSync(marker) && (await readFile(marker, 'utf8').catch(() => '')) === source) return dir;
    throw error;
  }
  return dir;
}
