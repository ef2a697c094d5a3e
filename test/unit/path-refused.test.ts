/**
 * The path rule's refusal is a registry error (INVALID_REQUEST, 422, naming the field), so every door that
 * takes a path from a client (MCP, the editor's language-model tools, SSML's <audio>) answers it in its own
 * shape without catching it; `reason` is the sentence alone.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApiError, registryErrorOf } from '../../src/contract/errors';
import { confineInput, confineOutput, PathRefusedError } from '../../src/local-files/confined-paths';

describe('PathRefusedError', () => {
  let inside: string;
  let outside: string;
  before(async () => {
    inside = await mkdtemp(path.join(os.tmpdir(), 'speech-confined-in-'));
    outside = await mkdtemp(path.join(os.tmpdir(), 'speech-confined-out-'));
    await writeFile(path.join(outside, 'talk.wav'), 'RIFF');
  });
  after(async () => {
    await rm(inside, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  it('a path outside the folders is refused as INVALID_REQUEST (422) naming the field', async () => {
    const refused = await confineInput(path.join(outside, 'talk.wav'), [inside], 'path').then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(
      refused instanceof PathRefusedError && refused instanceof ApiError,
      `a registry error, got ${String(refused)}`,
    );
    assert.equal(registryErrorOf(refused), refused);
    assert.equal(refused.code, 'INVALID_REQUEST');
    assert.equal(refused.status, 422);
    assert.equal(refused.field, 'path');
    assert.match(refused.message, /^path: .* is outside the folders/);
    assert.equal(refused.message, `path: ${refused.reason}`);
    assert.deepEqual(refused.toBody().error.code, 'INVALID_REQUEST');
  });

  it('no folder at all is refused the same way, for an output', async () => {
    await assert.rejects(
      confineOutput(path.join(outside, 'out.wav'), [], false),
      (error: unknown) =>
        error instanceof PathRefusedError &&
        error.code === 'INVALID_REQUEST' &&
        /^outputPath: no folder is open to file tools/.test(error.message),
    );
  });
});
