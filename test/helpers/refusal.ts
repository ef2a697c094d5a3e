/** The coded error a call throws: fails the test when it throws anything else, or nothing. */
import assert from 'node:assert/strict';
import { ApiError } from '../../src/contract/errors';

export function refusal(call: () => unknown): ApiError {
  try {
    call();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  assert.fail('expected a refusal');
}
