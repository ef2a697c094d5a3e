import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

interface Header {
  format: string;
  archs: string[];
}
const root = path.join(__dirname, '..', '..');
const script = pathToFileURL(path.join(root, 'scripts', 'check-packages.mjs')).href;
const load = async (): Promise<{
  binaryHeader: (bytes: Buffer) => Header;
  documentationProblems: (listing: string[], readme: string) => string[];
}> => import(script);
interface Contents {
  readmeTargets: (readme: string) => string[];
  isStaged: (file: string) => boolean;
  ignoredBy: (vscodeignore: string, file: string) => boolean;
}
const contents = async (): Promise<Contents> =>
  import(pathToFileURL(path.join(root, 'scripts', 'package-contents.mjs')).href);

function elf(machine: number): Buffer {
  const bytes = Buffer.alloc(64);
  bytes.writeUInt32BE(0x7f454c46, 0);
  bytes.writeUInt16LE(machine, 18);
  return bytes;
}

function pe(machine: number): Buffer {
  const bytes = Buffer.alloc(256);
  bytes.writeUInt16LE(0x5a4d, 0);
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.writeUInt32LE(0x00004550, 0x80);
  bytes.writeUInt16LE(machine, 0x84);
  return bytes;
}

function macho(cpu: number): Buffer {
  const bytes = Buffer.alloc(32);
  bytes.writeUInt32LE(0xfeedfacf, 0);
  bytes.writeUInt32LE(cpu, 4);
  return bytes;
}

function universal(...cpus: number[]): Buffer {
  const bytes = Buffer.alloc(8 + cpus.length * 20);
  bytes.writeUInt32BE(0xcafebabe, 0);
  bytes.writeUInt32BE(cpus.length, 4);
  cpus.forEach((cpu, i) => bytes.writeUInt32BE(cpu, 8 + i * 20));
  return bytes;
}

describe('the platform package check', () => {
  it('reads the format and architecture of ELF, PE and Mach-O headers', async () => {
    const { binaryHeader } = await load();
    assert.deepEqual(binaryHeader(elf(0x3e)), { format: 'elf', archs: ['x64'] });
    assert.deepEqual(binaryHeader(elf(0xb7)), { format: 'elf', archs: ['arm64'] });
    assert.deepEqual(binaryHeader(pe(0x8664)), { format: 'pe', archs: ['x64'] });
    assert.deepEqual(binaryHeader(pe(0xaa64)), { format: 'pe', archs: ['arm64'] });
    assert.deepEqual(binaryHeader(macho(0x01000007)), { format: 'macho', archs: ['x64'] });
    assert.deepEqual(binaryHeader(macho(0x0100000c)), { format: 'macho', archs: ['arm64'] });
    assert.deepEqual(binaryHeader(universal(0x01000007, 0x0100000c)), { format: 'macho', archs: ['x64', 'arm64'] });
  });

  it('names what it does not know instead of passing it', async () => {
    const { binaryHeader } = await load();
    assert.deepEqual(binaryHeader(elf(0x28)), { format: 'elf', archs: ['elf-machine-40'] });
    assert.deepEqual(binaryHeader(pe(0x14c)), { format: 'pe', archs: ['pe-machine-332'] });
    assert.deepEqual(binaryHeader(Buffer.from('#!/bin/sh\n')), { format: 'unknown', archs: [] });
  });

  it('wants README and every file it shows or links to in the package', async () => {
    const { documentationProblems } = await load();
    const readme =
      '# Speech Studio\n![The palette](media/screenshots/command-palette.png)\n[Guide](docs/editor-guide.md#commands)\n' +
      '[Fast loop](CONTRIBUTING.md) `[not a link](docs/none.md)` [web](https://example.com/x.md) [here](#install)\n```\n[in code](docs/none.md)\n```\n';
    const page = [
      'extension/readme.md',
      'extension/media/screenshots/command-palette.png',
      'extension/docs/editor-guide.md',
      'extension/CONTRIBUTING.md',
    ];
    assert.deepEqual(documentationProblems(page, readme), []);
    assert.deepEqual(
      documentationProblems(
        page.filter((name) => !name.includes('screenshots')),
        readme,
      ),
      ['lacks media/screenshots/command-palette.png, which README shows'],
    );
    assert.deepEqual(
      documentationProblems(
        page.filter((name) => !name.includes('docs/')),
        readme,
      ),
      ['lacks docs/editor-guide.md, which README links to'],
    );
    assert.deepEqual(documentationProblems(page.slice(1), readme), ["lacks README.md, the extension's page"]);
  });

  it('stages every file the real README links to, and .vscodeignore keeps each one', async () => {
    const { readmeTargets, isStaged, ignoredBy } = await contents();
    const vscodeignore = readFileSync(path.join(root, '.vscodeignore'), 'utf8');
    // vsce's reading of .vscodeignore: a `!` line keeps what a pattern, its own or the file's, leaves out.
    assert.equal(ignoredBy(vscodeignore, 'src/extension.ts'), true);
    assert.equal(ignoredBy('', 'CONTRIBUTING.md'), true, 'vsce leaves CONTRIBUTING.md out unless told');
    assert.equal(ignoredBy(vscodeignore, 'bench/run.ts'), true);
    assert.equal(ignoredBy(vscodeignore, 'node_modules/koa/lib/application.js'), true);
    assert.equal(ignoredBy(vscodeignore, 'node_modules/@echogarden/sonic-wasm/sonic.js'), false);
    assert.equal(ignoredBy('docs/**\n', 'docs/editor-guide.md'), true, 'a planted exclusion of docs/ is seen');
    const targets = readmeTargets(readFileSync(path.join(root, 'README.md'), 'utf8'));
    assert.ok(
      targets.includes('docs/editor-guide.md') &&
        targets.includes('CONTRIBUTING.md') &&
        targets.includes('bench/README.md'),
    );
    const dead = targets.filter(
      (target) => !existsSync(path.join(root, target)) || !isStaged(target) || ignoredBy(vscodeignore, target),
    );
    assert.deepEqual(dead, [], 'README links to files the package would not carry');
  });
});
