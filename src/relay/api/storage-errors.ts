/** Turns a failure of the relay's file storage into a plain 500 for the caller and one log line for the operator. */
import type { Middleware } from 'koa';
import { ApiError } from '../../contract/errors';
import type { Logger } from '../../util/log';
import { BlobStoreError } from '../storage/blob-store';

/**
 * A failure of the relay's storage (an S3 endpoint down, a refused request) is logged in one line with
 * the store's details and answered with a plain 500: the caller learns what failed, not the bucket's address.
 */
export function storageErrors(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      if (!(thrown instanceof BlobStoreError)) throw thrown;
      log.error(`${ctx.method} ${ctx.path.slice(0, 200)}: ${thrown.message}`);
      throw new ApiError(
        'INTERNAL_ERROR',
        'The relay could not complete the request because its file storage failed; try again later.',
      );
    }
  };
}
