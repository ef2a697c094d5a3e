/**
 * The one rule for file paths an agent hands us (the MCP tools, the editor's language-model tools): read
 * and write only inside the allowed folders (the client's declared roots or a configured folder), resolve
 * links before deciding, never write through a link, and replace an existing file only when asked.
 */
import { constants, createReadStream, type Stats } from 'node:fs';
import { lstat, open, realpath, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../contract/errors';

/**
 * A path the rule refuses: a registry error (INVALID_REQUEST, `field: reason`), so each door answers it in
 * its own shape without catching it; `reason` is the sentence alone, for a caller that names the place itself.
 */
export class PathRefusedError extends ApiError {
  /**
   * `publicReason`: the same refusal without the server's folders, for a client that did not choose them (an
   * HTTP request's SSML); by default the reason, which names only what the client gave.
   */
  constructor(
    readonly field: string,
    readonly reason: string,
    readonly publicReason = reason,
  ) {
    super('INVALID_REQUEST', `${field}: ${reason}`);
    this.name = 'PathRefusedError';
  }
}

/** The folders paths must lie in, as given (absolute); links in them are resolved when a path is checked. */
export type AllowedFolders = readonly string[];

const isInside = (folder: string, candidate: string): boolean => {
  const relative = path.relative(folder, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

async function realFolders(folders: AllowedFolders): Promise<string[]> {
  const resolved = await Promise.all(folders.map((folder) => realpath(folder).catch(() => undefined)));
  return resolved.filter((folder): folder is string => folder !== undefined);
}

function requireFolders(field: string, folders: AllowedFolders): void {
  if (folders.length === 0) {
    throw new PathRefusedError(
      field,
      'no folder is open to file tools: the client declared no roots and no folder is configured (--allow-folder or SPEECH_STUDIO_ALLOWED_FOLDERS)',
    );
  }
}

function refuseOutside(field: string, given: string, folders: AllowedFolders): never {
  throw new PathRefusedError(
    field,
    `${given} is outside the folders file tools may use (${folders.join(', ')})`,
    `${given} is outside the folders open to it`,
  );
}

/**
 * The shape every given path must have before the file system sees it: absolute, and without NUL, which
 * Node refuses with a TypeError that would reach the agent as an unexplained internal failure.
 */
function requireAbsolutePath(given: string, field: string): void {
  if (given.includes('\0')) throw new PathRefusedError(field, 'must not contain a NUL character');
  if (!path.isAbsolute(given)) throw new PathRefusedError(field, 'must be an absolute path');
}

/**
 * Narrows the client's declared roots by the configured folders: the configured folders are the limit a
 * client cannot widen. Without configured folders the client's roots stand; without roots, the configured.
 */
export function allowedFolders(clientRoots: AllowedFolders | undefined, configured: AllowedFolders): string[] {
  if (!clientRoots || clientRoots.length === 0) return [...configured];
  if (configured.length === 0) return [...clientRoots];
  return [
    ...clientRoots.filter((root) => configured.some((folder) => isInside(folder, root))),
    ...configured.filter((folder) => clientRoots.some((root) => isInside(root, folder))),
  ];
}

/** A file to read: absolute, a regular file once links are resolved, inside an allowed folder. */
export async function confineInput(
  given: string,
  folders: AllowedFolders,
  field = 'path',
): Promise<{ path: string; stats: Stats }> {
  requireAbsolutePath(given, field);
  requireFolders(field, folders);
  const real = await realpath(given).catch(() => undefined);
  if (!real) throw new PathRefusedError(field, `${given} does not exist`);
  if (!(await realFolders(folders)).some((folder) => isInside(folder, real))) refuseOutside(field, given, folders);
  const stats = await stat(real);
  if (!stats.isFile()) throw new PathRefusedError(field, `${given} is not a regular file`);
  return { path: real, stats };
}

/**
 * A file to write, checked before any work starts: absolute, its folder exists and lies (links resolved)
 * inside an allowed folder, the name itself is not a link or a folder, and an existing file only with
 * `overwrite`. Answers the path to write (through the real folder).
 */
export async function confineOutput(
  given: string,
  folders: AllowedFolders,
  overwrite: boolean,
  field = 'outputPath',
): Promise<string> {
  requireAbsolutePath(given, field);
  requireFolders(field, folders);
  const name = path.basename(given);
  if (!name || name === '.' || name === '..') throw new PathRefusedError(field, `${given} names no file`);
  const parent = path.dirname(given);
  const realParent = await realpath(parent).catch(() => undefined);
  if (!realParent || !(await stat(realParent)).isDirectory())
    throw new PathRefusedError(field, `the folder ${parent} does not exist; create it first`);
  const target = path.join(realParent, name);
  if (!(await realFolders(folders)).some((folder) => isInside(folder, target) && folder !== target))
    refuseOutside(field, given, folders);
  const existing = await lstat(target).catch(() => undefined);
  if (existing?.isSymbolicLink())
    throw new PathRefusedError(field, `${given} is a symbolic link; Speech Studio does not write through links`);
  if (existing?.isDirectory()) throw new PathRefusedError(field, `${given} is a folder; give a file name`);
  if (existing && !existing.isFile()) throw new PathRefusedError(field, `${given} is not a regular file`);
  if (existing && !overwrite) throw new PathRefusedError(field, `${given} exists; pass overwrite: true to replace it`);
  return target;
}

/**
 * Opens a checked output for writing without following a link at its name (O_NOFOLLOW), creating it
 * exclusively unless `overwrite`; the check is repeated first, since the work between took time.
 */
async function openConfined(
  given: string,
  folders: AllowedFolders,
  overwrite: boolean,
  field: string,
): Promise<FileHandle> {
  const target = await confineOutput(given, folders, overwrite, field);
  const flags =
    constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | (overwrite ? constants.O_TRUNC : constants.O_EXCL);
  try {
    return await open(target, flags, 0o644);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      throw new PathRefusedError(field, `${given} is a symbolic link; Speech Studio does not write through links`);
    if (code === 'EEXIST') throw new PathRefusedError(field, `${given} exists; pass overwrite: true to replace it`);
    throw error;
  }
}

async function writeAll(handle: FileHandle, chunk: Buffer): Promise<void> {
  for (let offset = 0; offset < chunk.length;) offset += (await handle.write(chunk, offset)).bytesWritten;
}

/** Writes `content` (text, or the file at `{ copyFrom }`) to a confined output; a failed write leaves no file it created. */
export async function writeConfined(
  given: string,
  folders: AllowedFolders,
  content: string | { copyFrom: string },
  options: { overwrite: boolean; field?: string },
): Promise<string> {
  const field = options.field ?? 'outputPath';
  const existed = await lstat(given).then(
    () => true,
    () => false,
  );
  const handle = await openConfined(given, folders, options.overwrite, field);
  try {
    if (typeof content === 'string') await handle.writeFile(content, 'utf8');
    else for await (const chunk of createReadStream(content.copyFrom)) await writeAll(handle, chunk as Buffer);
  } catch (error) {
    await handle.close().catch(() => undefined);
    if (!existed) await unlink(given).catch(() => undefined);
    throw error;
  }
  await handle.close();
  return given;
}
