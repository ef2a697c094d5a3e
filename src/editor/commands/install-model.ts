/**
 * Install Model…: the model catalog in a quick pick (with what is installed), then the download under a
 * progress notification whose Cancel button stops it. The server sees a model the moment it is complete.
 */
import * as vscode from 'vscode';
import { modelMirrorFromEnvironment, proxyEnvironment } from '../../config/server-environment';
import { entryBytes, type CatalogEntry } from '../../models/catalog';
import { hasCode, type ApiError } from '../../contract/errors';
import { createModelManager, type InstallResult, type ModelManager } from '../../models/model-manager';
import type { ModelListing } from '../../models/model-status';
import { megabytes } from '../../util/byte-size';
import { reportError } from '../log';
import type { Services } from '../services';

const KIND_LABELS: Record<CatalogEntry['kind'], string> = {
  stt: 'Speech-to-text',
  'diarization-segmentation': 'Speaker diarization',
  'speaker-embedding': 'Speaker diarization',
  punctuation: 'Punctuation',
  vad: 'Voice activity detection',
  'tts-voice': 'Voices',
  'voice-cloning': 'Voice cloning',
  llm: 'Language models (translation)',
};

const STATUS_LABELS: Record<ModelListing['status'], string> = {
  installed: '$(check) installed',
  installing: '$(sync~spin) installing',
  partial: '$(debug-pause) partly downloaded',
  incomplete: '$(warning) files missing',
  unverified: '$(question) unverified',
  'not-installed': '',
};

interface ModelItem extends vscode.QuickPickItem {
  id?: string;
}

function modelItems(listings: ModelListing[]): ModelItem[] {
  const items: ModelItem[] = [];
  let lastGroup = '';
  for (const { entry, status } of listings) {
    const group = KIND_LABELS[entry.kind];
    if (group !== lastGroup) items.push({ label: group, kind: vscode.QuickPickItemKind.Separator });
    lastGroup = group;
    items.push({
      id: entry.id,
      label: entry.name,
      description: [megabytes(entryBytes(entry)), STATUS_LABELS[status]].filter(Boolean).join(' · '),
      detail: `${entry.id} — ${entry.license}${entry.languages.length ? ` — ${entry.languages.slice(0, 6).join(', ')}` : ''}`,
    });
  }
  return items;
}

export function openModelManager(services: Services): Promise<ModelManager> {
  return createModelManager({
    dataDir: services.controller.dataDir,
    mirror: services.settings().modelMirror || modelMirrorFromEnvironment(),
    env: proxyEnvironment(),
  });
}

/** Installs `id` (asks when not given); undefined when the user dismissed the pick or cancelled. */
export async function installModel(services: Services, id?: string): Promise<InstallResult | undefined> {
  const models = await openModelManager(services);
  if (!id) {
    const { models: listings } = await models.list();
    const order = Object.keys(KIND_LABELS);
    listings.sort((a, b) => order.indexOf(a.entry.kind) - order.indexOf(b.entry.kind));
    const picked = await vscode.window.showQuickPick(modelItems(listings), {
      title: 'Install Model',
      placeHolder: 'Search the model catalog',
      matchOnDescription: true,
      matchOnDetail: true,
    });
    id = picked?.id;
  }
  if (!id) return undefined;
  const entry = models.catalog.models.find((e) => e.id === id);
  const title = `Installing ${entry?.name ?? id}`;
  const controller = new AbortController();
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (progress, token) => {
        token.onCancellationRequested(() => controller.abort());
        let shown = 0;
        return models.install(id, {
          signal: controller.signal,
          onProgress: (p) => {
            const overall = p.percent === null ? null : ((p.fileIndex + p.percent / 100) / p.fileCount) * 100;
            const increment = overall === null ? undefined : Math.max(0, overall - shown);
            if (overall !== null) shown = Math.max(shown, overall);
            const action = p.phase === 'verifying' ? 'Verifying' : 'Downloading';
            progress.report({
              increment,
              message: `${action} ${p.file} (${megabytes(p.bytes)} of ${megabytes(p.totalBytes)})`,
            });
          },
        });
      },
    );
    services.log.info(result.alreadyInstalled ? `${id} was already installed.` : `Installed ${id}.`);
    void vscode.window.showInformationMessage(
      result.alreadyInstalled ? `${entry?.name ?? id} is already installed.` : `${entry?.name ?? id} is installed.`,
    );
    return result;
  } catch (error) {
    if (controller.signal.aborted || hasCode(error, 'CANCELLED')) {
      services.log.info(`Installing ${id} was cancelled.`);
      return undefined;
    }
    throw error;
  }
}

/** The editor's ways round an unreachable download server: its mirror setting, or files fetched elsewhere. */
export const OFFLINE_ADVICE =
  'Or set "speechStudio.models.mirror" to a mirror of the model files, or download them elsewhere and use Import Model….';

function reportUnreachable(services: Services, error: ApiError): void {
  services.log.error(`Installing the model failed: ${error.message}`);
  void vscode.window
    .showErrorMessage(`Installing the model failed: ${error.message} ${OFFLINE_ADVICE}`, 'Set Mirror', 'Import Model…')
    .then((choice) => {
      if (choice === 'Set Mirror')
        void vscode.commands.executeCommand('workbench.action.openSettings', 'speechStudio.models.mirror');
      if (choice === 'Import Model…') void vscode.commands.executeCommand('speechStudio.importModel');
    });
}

export function registerInstallModel(services: Services): vscode.Disposable {
  return vscode.commands.registerCommand('speechStudio.installModel', async (id?: unknown) => {
    try {
      return await installModel(services, typeof id === 'string' ? id : undefined);
    } catch (error) {
      if (hasCode(error, 'UNREACHABLE')) reportUnreachable(services, error);
      else reportError(services.log, 'Installing the model failed', error);
      return undefined;
    }
  });
}
