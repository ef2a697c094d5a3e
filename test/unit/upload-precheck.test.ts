import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../src/contract/errors';
import { declaredLength, precheckUpload } from '../../src/http/upload/upload-precheck';
import { FRAMING_ALLOWANCE, requireMediaFile } from '../../src/http/upload/receive-upload';

/** The two things the pre-check reads of a request: its Content-Length header and its media type. */
const requestWith = (contentLength: string | undefined, multipart = true) => ({
  get: (name: string) => (name.toLowerCase() === 'content-length' ? (contentLength ?? '') : ''),
  is: (type: string) => (multipart && type === 'multipart/form-data' ? type : false),
});

describe('the one STT upload pre-check (Local API, OpenAI door, relay)', () => {
  it('reads a declared length only from a whole number of bytes; absent, empty or nonsense declares none', () => {
    assert.equal(declaredLength(requestWith('1234')), 1234);
    assert.equal(declaredLength(requestWith('0')), 0);
    for (const text of [undefined, '', ' ', 'abc', '12abc', '-5', '1.5', '1e6', '99999999999999999999']) {
      assert.equal(declaredLength(requestWith(text)), undefined, JSON.stringify(text));
    }
  });

  it('refuses a body that is not multipart with INVALID_REQUEST naming file', () => {
    assert.throws(
      () => precheckUpload(requestWith('10', false), 100),
      (error: unknown) =>
        error instanceof ApiError && error.code === 'INVALID_REQUEST' && error.message.startsWith('file: '),
    );
  });

  it('refuses a declared body that cannot fit the limit with FILE_TOO_LARGE, and lets the rest through', () => {
    const limit = 1000;
    assert.equal(precheckUpload(requestWith(String(limit + FRAMING_ALLOWANCE)), limit), limit + FRAMING_ALLOWANCE);
    assert.throws(
      () => precheckUpload(requestWith(String(limit + FRAMING_ALLOWANCE + 1)), limit),
      (error: unknown) => error instanceof ApiError && error.code === 'FILE_TOO_LARGE',
    );
    assert.equal(
      precheckUpload(requestWith(''), limit),
      undefined,
      'an empty Content-Length is measured as the body arrives',
    );
  });

  it('refuses a received upload without its media part, or with an empty one, the same on every door', () => {
    const refused = (file: Parameters<typeof requireMediaFile>[0]) => () => requireMediaFile(file);
    assert.throws(
      refused(undefined),
      (error: unknown) =>
        error instanceof ApiError && error.code === 'INVALID_REQUEST' && /^file: is required/.test(error.message),
    );
    assert.throws(
      refused({ storedName: 'input.wav', originalName: 'a.wav', bytes: 0 }),
      (error: unknown) => error instanceof ApiError && error.message === 'file: is empty',
    );
    const file = { storedName: 'input.wav', originalName: 'a.wav', bytes: 44 };
    assert.equal(requireMediaFile(file), file);
  });
});
