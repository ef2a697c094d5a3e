import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../src/contract/errors';
import { requireSucceeded } from '../../src/contract/job-rules';
import { nameFromText as jobNameFromText } from '../../src/jobs/job-name';

const hasLoneSurrogate = (text: string): boolean =>
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe('job rules shared by the Local API and the relay', () => {
  it('names a TTS job after its text on one line, cut at 60 characters', () => {
    assert.equal(jobNameFromText('  Hello\n\tworld  '), 'Hello world');
    assert.equal(jobNameFromText(' \n '), 'Speech');
    const long = jobNameFromText('a'.repeat(100));
    assert.equal(long, `${'a'.repeat(57)}…`);
  });

  it('never cuts a name inside a surrogate pair (100 emoji)', () => {
    const name = jobNameFromText('😀'.repeat(100));
    assert.equal(hasLoneSurrogate(name), false, JSON.stringify(name));
    assert.equal(name, `${'😀'.repeat(57)}…`);
  });

  it('reads results only from a succeeded job of the right kind', () => {
    assert.doesNotThrow(() => requireSucceeded({ kind: 'tts', status: 'succeeded' }, 'tts'));
    assert.throws(
      () => requireSucceeded({ kind: 'stt', status: 'succeeded' }, 'tts'),
      (e: ApiError) => e.code === 'WRONG_JOB_KIND' && e.status === 409,
    );
    assert.throws(
      () => requireSucceeded({ kind: 'tts', status: 'processing' }, 'tts'),
      (e: ApiError) => e.code === 'JOB_NOT_COMPLETED' && /processing/.test(e.message),
    );
  });
});
