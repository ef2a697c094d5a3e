/**
 * A media file an MCP tool reads from this machine, taken as an upload would be: confined to the allowed
 * folders, within the upload size limit, and starting with a media container's first bytes.
 */
import { invalidRequest } from '../contract/errors';
import { MAX_UPLOAD_BYTES, tooLarge } from '../http/upload/receive-upload';
import { confineInput, type AllowedFolders } from '../local-files/confined-paths';
import { readMediaSignature } from '../local-files/media-signature';

export async function confinedMedia(
  maxUploadBytes: number | undefined,
  given: string,
  allowed: AllowedFolders,
  field: string,
): ReturnType<typeof confineInput> {
  const media = await confineInput(given, allowed, field);
  // What an upload could not carry is not copied either: the size limit and a media file's first bytes.
  const maxBytes = maxUploadBytes ?? MAX_UPLOAD_BYTES;
  if (media.stats.size > maxBytes) throw tooLarge(maxBytes);
  if (!(await readMediaSignature(media.path)))
    throw invalidRequest(`${field}: ${given} is not a media file (no audio or video container Speech Studio reads)`);
  return media;
}
