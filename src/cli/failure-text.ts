/**
 * The CLI's one mapping of a failure to the line it prints: a registry error (a model, a voice of your own,
 * a refused job) in its own sentence for the person who ran the command; anything else as what it says,
 * after `unexpected` where the command marks it (`Failed: `).
 */
import { ApiError } from '../contract/errors';
import { describeThrown } from '../util/log';

export const failureText = (thrown: unknown, unexpected = ''): string =>
  thrown instanceof ApiError ? thrown.message : `${unexpected}${describeThrown(thrown)}`;
