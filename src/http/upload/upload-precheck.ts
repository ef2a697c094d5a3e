/**
 * What an STT upload is refused for before a byte of it is read, the same on every door that takes one
 * (the Local API, the OpenAI door, the relay): not multipart, or a declared body that cannot fit the limit.
 */
import { invalidRequest } from '../../contract/errors';
import { FRAMING_ALLOWANCE, tooLarge } from './receive-upload';

/** What the pre-check reads of a request (a Koa context is one). */
export interface UploadRequest {
  get(header: string): string;
  is(type: string): string | false | null;
}

/**
 * The body's declared length, or undefined when the request declares none that means a size: no header, an
 * empty one, or one that is not a whole number of bytes (a chunked upload is measured as it arrives).
 */
export function declaredLength(ctx: Pick<UploadRequest, 'get'>): number | undefined {
  const text = ctx.get('Content-Length').trim();
  if (!/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * Refuses a body that is not multipart/form-data (INVALID_REQUEST) or declares more than `maxBytes` of file
 * can fit in (FILE_TOO_LARGE); answers the declared length, if any.
 */
export function precheckUpload(ctx: UploadRequest, maxBytes: number): number | undefined {
  if (!ctx.is('multipart/form-data'))
    throw invalidRequest('file: send multipart/form-data with the media in a part named "file"');
  const declared = declaredLength(ctx);
  if (declared !== undefined && declared > maxBytes + FRAMING_ALLOWANCE) throw tooLarge(maxBytes);
  return declared;
}
