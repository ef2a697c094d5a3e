/**
 * The one check for the user's own files that a command reads or writes (the CLI's job commands, voices and
 * speakers, the editor's commands, the job core behind them), made before any work starts: a file to read is a
 * regular file once links are resolved (a FIFO, socket or device would hold the reader forever), an output's
 * folder exists and is writable (else hours of work are lost at the end), and an output is none of the inputs
 * (the same file reached by a link, a hard link or another spelling would be replaced by the result).
 */
import { constants, type Stats } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../contract/errors';

/** A user's file refused before any work; the message is one sentence for the user. */
export class UserFileError extends ApiError {
  constructor(message: string) {
    super('INVALID_REQUEST', message);
    this.name = 'UserFileError';
  }
}

const statOrNone = (file: string): Promise<Stats | undefined> =>
  stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw new UserFileError(`${file} cannot be read (${error.code ?? error.message}).`);
  });

/**
 * The stats of a file to read, refused unless it is a regular file once links are resolved. `what` names it
 * for the user ("subtitle file", "clip"). Never opens the file, so a FIFO cannot hold the check.
 */
export async function requireRegularFile(file: string, what = 'file'): Promise<Stats> {
  const info = await statOrNone(file);
  if (!info) throw new UserFileError(`There is no ${what} at ${file}.`);
  if (info.isDirectory()) throw new UserFileError(`${file} is a folder; give the ${what} itself.`);
  if (!info.isFile())
    throw new UserFileError(
      `${file} is not a regular file (a pipe, socket or device cannot be read as a ${what}); give a file.`,
    );
  return info;
}

/** Refuses an output whose folder is missing, not a folder, or not writable. */
export async function requireWritableFolder(out: string, what = 'output'): Promise<void> {
  const folder = path.dirname(path.resolve(out));
  const info = await statOrNone(folder);
  if (!info)
    throw new UserFileError(`The folder ${folder} does not exist; create it, or choose another place for the ${what}.`);
  if (!info.isDirectory())
    throw new UserFileError(`${folder} is not a folder, so the ${what} cannot be written in it.`);
  try {
    await access(folder, constants.W_OK);
  } catch {
    throw new UserFileError(
      `The folder ${folder} is not writable, so the ${what} cannot be written there; choose another place.`,
    );
  }
}

/** Whether two paths name one file: the same device and inode once links are resolved (hard links included). */
export async function isSameFile(a: string, b: string): Promise<boolean> {
  if (path.resolve(a) === path.resolve(b)) return true;
  const [first, second] = await Promise.all([stat(a).catch(() => undefined), stat(b).catch(() => undefined)]);
  return first !== undefined && second !== undefined && first.dev === second.dev && first.ino === second.ino;
}

/** Refuses an output that is one of the inputs, however it is spelled or linked, so writing it cannot replace one. */
export async function refuseOutputOverInput(out: string, inputs: readonly string[], what = 'output'): Promise<void> {
  for (const input of inputs) {
    if (await isSameFile(out, input))
      throw new UserFileError(
        `The ${what} ${out} is the input ${input}: writing it would replace the input; choose another output file.`,
      );
  }
}

/** The checks an output gets before the work: its folder writable, and none of the inputs. */
export async function checkOutputFile(out: string, inputs: readonly string[], what = 'output'): Promise<void> {
  await requireWritableFolder(out, what);
  await refuseOutputOverInput(out, inputs, what);
}
