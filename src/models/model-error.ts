/**
 * Every way installing a model can fail, as one error class with a code the CLI, the editor and the
 * tests can tell apart. The message is written for the person who ran the command.
 */
export type ModelErrorCode =
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
  | 'IMPORT_FAILED';

export class ModelError extends Error {
  constructor(
    readonly code: ModelErrorCode,
    message: string,
    readonly details: { status?: number; url?: string } = {},
  ) {
    super(message);
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
