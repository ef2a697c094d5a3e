/**
 * Every way installing a model can fail, as one registry error class with a code the CLI, the editor and
 * the tests can tell apart (codes and statuses in src/contract/errors.ts). The message is written for the
 * person who ran the command.
 */
import { ApiError, type LocalErrorCode } from '../contract/errors';

export type ModelErrorCode = LocalErrorCode &
  (
  | 'UNKNOWN_MODEL'
  | 'NOT_INSTALLED'
  | 'INVALID_CATALOG'
  | 'INVALID_MANIFEST'
  | 'CANCELLED'
  | 'HTTP_ERROR'
  | 'TOO_MANY_REDIRECTS'
  | 'REDIRECT_LOOP'
  | 'PROXY_ERROR'
  | 'NETWORK'
  | 'UNREACHABLE'
  | 'SIZE_MISMATCH'
  | 'CHECKSUM_MISMATCH'
  | 'NO_SPACE'
  | 'ALREADY_INSTALLING'
  | 'IMPORT_FAILED');

export class ModelError extends ApiError {
  declare readonly code: ModelErrorCode;

  constructor(
    code: ModelErrorCode,
    message: string,
    /** The HTTP status and address of a failed download: the server's, never this error's own status. */
    readonly details: { status?: number; url?: string } = {},
  ) {
    super(code, message);
    this.name = 'ModelError';
  }
}

/** A dropped connection or a stalled transfer: the bytes so far are good, so a retry resumes from them. */
export const isResumable = (error: unknown): boolean =>
  error instanceof ModelError && (error.code === 'NETWORK' || error.code === 'UNREACHABLE');

export const cancelledError = (): ModelError => new ModelError('CANCELLED', 'The download was cancelled; nothing was installed.');

/** The error for a failed write when the disk is full (ENOSPC, EDQUOT); undefined for any other failure. */
export function diskFullError(error: unknown, file: string): ModelError | undefined {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code !== 'ENOSPC' && code !== 'EDQUOT') return undefined;
  return new ModelError('NO_SPACE', `The disk is full: no space left to write ${file}. Free some space and try again.`);
}
