/**
 * Models by hand: "Import Model…" installs a copy of a file the user downloaded elsewhere (checked against the
 * catalog like a download: its size and sha256, or a whisper.cpp model of the user's own), with progress and
 * Cancel for big files, and "Open Data Folder" shows where models, jobs and the API key live.
 */
import * as vscode from 'vscode';
import { hasCode } from '../../contract/errors';
import type { InstallResult } from '../../models/model-manager';
import { megabytes } from '../../util/byte-size';
import { reportError } from '../log';
import type { Services } from '../services';
import { openModelManager } from './install-model';

export const IMPORT_MODEL_COMMAND = 'speechStudio.importModel';
export const OPEN_DATA_FOLDER_COMMAND = 'speechStudio.openDataFolder';

/** Imports `file` (asks for one when not given); undefined when the user cancelled. */
export async function importModelFile(services: Services, file?: vscode.Uri): Promise<InstallResult | undefined> {
  const source =
    file ??
    (
      await vscode.window.showOpenDialog({
        title: 'Import Model',
        openLabel: 'Import',
        canSelectMany: false,
        filters: { 'Model files': ['bin', 'onnx', 'gguf', 'tar', 'bz2', 'json', 'txt'], 'All files': ['*'] },
      })
    )?.[0];
  if (!source) return undefined;
  const models = await openModelManager(services);
  const controller = new AbortController();
  try {
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Importing ${source.path.split('/').pop()}`,
        cancellable: true,
      },
      (progress, token) => {
        token.onCancellationRequested(() => controller.abort());
        progress.report({ message: 'Copying it into the data folder and checking it against the model catalog…' });
        let shown = 0;
        return models.importFile(source.fsPath, {
          signal: controller.signal,
          onProgress: (p) => {
            const increment = p.percent === null ? undefined : Math.max(0, p.percent - shown);
            if (p.percent !== null) shown = Math.max(shown, p.percent);
            progress.report({
              increment,
              message: `Copying and checking (${megabytes(p.bytes)} of ${megabytes(p.totalBytes)})`,
            });
          },
        });
      },
    );
    const name = models.catalog.models.find((entry) => entry.id === result.id)?.name ?? result.id;
    services.log.info(`Imported ${source.fsPath} as ${result.id}.`);
    void vscode.window.showInformationMessage(`${name} is installed from ${source.fsPath}.`);
    return result;
  } catch (error) {
    if (controller.signal.aborted || hasCode(error, 'CANCELLED')) return undefined;
    throw error;
  }
}

/** Reveals the data folder in the system's file manager (or, where there is none, offers to copy its path). */
export async function openDataFolder(services: Services): Promise<string> {
  const folder = services.controller.dataDir;
  await vscode.workspace.fs.createDirectory(vscode.Uri.file(folder));
  if (vscode.env.uiKind === vscode.UIKind.Desktop && !vscode.env.remoteName) {
    await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(folder));
  } else {
    void vscode.window
      .showInformationMessage(`The Speech Studio data folder is ${folder}.`, 'Copy Path')
      .then((choice) => {
        if (choice) void vscode.env.clipboard.writeText(folder);
      });
  }
  return folder;
}

export function registerModelFiles(services: Services): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(IMPORT_MODEL_COMMAND, async (file?: unknown) => {
      try {
        return await importModelFile(services, file instanceof vscode.Uri ? file : undefined);
      } catch (error) {
        reportError(services.log, 'Importing the model failed', error);
        return undefined;
      }
    }),
    vscode.commands.registerCommand(OPEN_DATA_FOLDER_COMMAND, () => openDataFolder(services)),
  );
}
