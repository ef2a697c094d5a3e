/**
 * Where a command writes its result: beside the source file, and never over an existing file without
 * asking. "Keep Both" picks the first free `name (2).ext`, `name (3).ext`, …
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import * as vscode from 'vscode';
import { isSameFile } from '../local-files/user-files';

const exists = (file: string): Promise<boolean> =>
  stat(file).then(
    () => true,
    () => false,
  );

/** `video.mp4` + `.srt` → `video.srt` in the same folder. */
export function besideSource(source: string, extension: string): string {
  const parsed = path.parse(source);
  return path.join(parsed.dir, `${parsed.name}${extension}`);
}

export async function firstFreeName(file: string): Promise<string> {
  const parsed = path.parse(file);
  for (let n = 2; ; n++) {
    const candidate = path.join(parsed.dir, `${parsed.name} (${n})${parsed.ext}`);
    if (!(await exists(candidate))) return candidate;
  }
}

/**
 * The file to write, or undefined when the user cancelled. `overwrite: true` skips the question (for
 * callers that already asked, and for tests). The question is a quick pick, like the questions before it.
 * A file in `protectedFiles` (an input of the command, however linked or spelled) is never offered for replacing:
 * the next free name is used instead.
 */
export async function chooseOutputFile(
  wanted: string,
  overwrite?: boolean,
  protectedFiles: readonly string[] = [],
): Promise<string | undefined> {
  // A file the source depends on (a subtitle's own recording) is never replaced, not even when asked.
  for (const file of protectedFiles) if (await isSameFile(file, wanted)) return firstFreeName(wanted);
  if (overwrite || !(await exists(wanted))) return wanted;
  const free = await firstFreeName(wanted);
  const choice = await vscode.window.showQuickPick(
    [
      { label: 'Keep Both', description: `write ${path.basename(free)}`, target: free },
      { label: 'Replace', description: `overwrite ${path.basename(wanted)}`, target: wanted },
    ],
    {
      title: `${path.basename(wanted)} already exists in ${path.dirname(wanted)}`,
      placeHolder: 'Keep both files, or replace the existing one?',
      ignoreFocusOut: true,
    },
  );
  return choice?.target;
}
