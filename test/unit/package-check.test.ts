import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

interface Header { format: string; archs: string[] }
const script = pathToFileURL(path.join(__dirname, '..', '..', 'scripts', 'check-packages.mjs')).href;
const load = async (): Promise<{ binaryHeader: (bytes: Buffer) => Header; documentationProblems: (listing: string[], readme: string) => string[] }> => import(script);

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

  it('wants README and the screenshots it shows in the package, and operator and contributor documents out', async () => {
    const { documentationProblems } = await load();
    const readme = '# Speech Studio\n![The palette](media/screenshots/command-palette.png)\n[Guide](docs/editor-guide.md)\n';
    const page = ['extension/readme.md', 'extension/media/screenshots/command-palette.png'];
    assert.deepEqual(documentationProblems(page, readme), []);
    assert.deepEqual(documentationProblems(['extension/readme.md'], readme), ['lacks media/screenshots/command-palette.png, which README shows']);
    assert.deepEqual(documentationProblems([...page, 'extension/docs/operations.md', 'extension/CONTRIBUTING.md', 'extension/bench/README.md'], readme), [
      'carries extension/docs/operations.md, a document for operators or contributors',
      'carries extension/CONTRIBUTING.md, a document for operators or contributors',
      'carries extension/bench/README.md, a document for operators or contributors',
    ]);
    assert.deepEqual(documentationProblems(page.slice(1), readme), ["lacks README.md, the extension's page"]);
  });
});
