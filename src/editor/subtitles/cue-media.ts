/**
 * Which media file a subtitle file belongs to: the one the user picked for it (remembered per file in the
 * workspace), else a media file of the same name beside it, else — when asked — one the user picks now.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { MEDIA_EXTENSIONS } from '../../contract/media-types';

const memoryKey = (subtitle: vscode.Uri): string => `speechStudio.cueMedia:${subtitle.toString()}`;

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** The media file of the same name beside the subtitle file (`talk.srt` → `talk.mp4`), if there is one. */
export async function mediaBeside(subtitle: vscode.Uri): Promise<vscode.Uri | undefined> {
  const parsed = path.posix.parse(subtitle.path);
  const baseNames = [parsed.name, parsed.name.replace(/\.[a-z]{2,3}(-[A-Za-z]{2,4})?$/, '')];
  for (const baseName of new Set(baseNames)) {
    for (const extension of MEDIA_EXTENSIONS) {
      const candidate = subtitle.with({ path: path.posix.join(parsed.dir, `${baseName}.${extension}`) });
      if (await exists(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Remembers, for this workspace, that `subtitle` belongs to `media`. */
export async function rememberMediaFor(
  context: vscode.ExtensionContext,
  subtitle: vscode.Uri,
  media: vscode.Uri,
): Promise<void> {
  await context.workspaceState.update(memoryKey(subtitle), media.toString());
}

/**
 * The media file for `subtitle`, or undefined when there is none and `pick` is false or the user cancels.
 * A remembered file that no longer exists is forgotten.
 */
export async function mediaForSubtitle(
  context: vscode.ExtensionContext,
  subtitle: vscode.Uri,
  pick = true,
): Promise<vscode.Uri | undefined> {
  const remembered = context.workspaceState.get<string>(memoryKey(subtitle));
  if (remembered !== undefined) {
    const uri = vscode.Uri.parse(remembered);
    if (await exists(uri)) return uri;
    await context.workspaceState.update(memoryKey(subtitle), undefined);
  }
  const beside = await mediaBeside(subtitle);
  if (beside !== undefined || !pick) return beside;
  const picked = await vscode.window.showOpenDialog({
    title: `Media for ${path.posix.basename(subtitle.path)}`,
    openLabel: 'Use This Media',
    canSelectMany: false,
    defaultUri: subtitle.with({ path: path.posix.dirname(subtitle.path) }),
    filters: { Media: [...MEDIA_EXTENSIONS] },
  });
  const media = picked?.[0];
  if (media !== undefined) await rememberMediaFor(context, subtitle, media);
  return media;
}
