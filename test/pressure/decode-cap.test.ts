/**
 * The decoder's own limit, for media whose container lies about its length (the probe check in
 * decodeInput cannot see those): decoding stops at the cap with the caller's sentence, whatever the
 * header claimed.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeToPcm16 } from '../../src/engine/media/decode-pcm16';
import { findMediaTools } from '../../src/engine/media/ffmpeg';
import { UserFacingError } from '../../src/engine-api/protocol';
import { MAX_TRANSCRIBE_SECONDS } from '../../src/engine/stt/decode-input';
import { tempDir } from '../helpers/temp';
import { oneHertzWav } from './support';

describe('decodeToPcm16 with a length limit', () => {
  let dir: string;
  let wav: string;
  before(async () => {
    dir = await tempDir();
    // 1000 s of 1 Hz 8-bit silence: 1 KB that decodes to 32 MB.
    wav = await oneHertzWav(path.join(dir, 'long.wav'), 1000);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('decodes up to the limit and no further, even when told the media is 1 second long', async () => {
    const tooLong = () => new UserFacingError('too long for this test');
    await assert.rejects(
      decodeToPcm16(wav, findMediaTools(), { expectedSeconds: 1, maxSeconds: 5, tooLong }),
      (error: unknown) => error instanceof UserFacingError && error.message === 'too long for this test',
    );
  });

  it('decodes the whole file when it is within the limit', async () => {
    const pcm = await decodeToPcm16(wav, findMediaTools(), { maxSeconds: 2000 });
    assert.equal(pcm.length, 1000 * 16_000);
  });

  it('caps a job at 4 hours of audio', () => {
    assert.equal(MAX_TRANSCRIBE_SECONDS, 4 * 3600);
  });
});
