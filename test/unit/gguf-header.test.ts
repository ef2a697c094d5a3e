import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ggufHeaderProblem } from '../../src/models/gguf-header';
import { makeTinyGguf } from '../fixtures/llm/make-tiny-gguf';

/** A 64-byte file with a GGUF header claiming `tensors` tensors and `entries` metadata entries. */
function header(tensors: bigint, entries: bigint, version = 3): Buffer {
  const bytes = Buffer.alloc(64);
  bytes.write('GGUF', 0, 'latin1');
  bytes.writeUInt32LE(version, 4);
  bytes.writeBigUInt64LE(tensors, 8);
  bytes.writeBigUInt64LE(entries, 16);
  return bytes;
}

describe("a language model's GGUF header is checked before llama.cpp loads it", () => {
  let dir: string;
  before(async () => (dir = await mkdtemp(path.join(os.tmpdir(), 'gguf-header-'))));
  after(() => rm(dir, { recursive: true, force: true }));
  const file = async (name: string, bytes: Buffer): Promise<string> => {
    const target = path.join(dir, name);
    await writeFile(target, bytes);
    return target;
  };

  it('passes a real (tiny, random-weight) model', async () => {
    assert.equal(await ggufHeaderProblem(await file('tiny.gguf', makeTinyGguf())), null);
  });

  it('refuses a 64-byte file claiming 2^60 tensors, or more metadata than it holds', async () => {
    assert.match(
      (await ggufHeaderProblem(await file('huge.gguf', header(2n ** 60n, 1n)))) ?? '',
      /claims 1152921504606846976 tensors .* a file of 64 bytes cannot hold/,
    );
    assert.match((await ggufHeaderProblem(await file('kv.gguf', header(1n, 2n ** 40n)))) ?? '', /cannot hold/);
    assert.match((await ggufHeaderProblem(await file('none.gguf', header(0n, 0n)))) ?? '', /claims 0 tensors/);
  });

  it('refuses what is not GGUF, and versions llama.cpp does not read', async () => {
    assert.equal(await ggufHeaderProblem(await file('text.gguf', Buffer.from('hello'))), 'it is not a GGUF file');
    assert.match((await ggufHeaderProblem(await file('v9.gguf', header(1n, 1n, 9)))) ?? '', /version 9/);
  });
});
