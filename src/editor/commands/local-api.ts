/**
 * The Local API's own commands: copy the key, show the base URL, regenerate the key, show the log.
 */
import * as vscode from 'vscode';
import { reportError } from '../log';
import type { Services } from '../services';

export function baseUrlOf(services: Services): string | undefined {
  const state = services.controller.state;
  return state.kind === 'running' && state.apiEnabled ? state.url : undefined;
}

async function copyApiKey(services: Services): Promise<void> {
  await vscode.env.clipboard.writeText(services.keys.get());
  const auth = services.settings().localApi.auth;
  void vscode.window.showInformationMessage(
    auth
      ? 'The Local API key is on the clipboard.'
      : 'The Local API key is on the clipboard. Authentication is off, so requests do not need it yet.',
  );
}

async function showBaseUrl(services: Services): Promise<string | undefined> {
  const url = baseUrlOf(services);
  if (!url) {
    const state = services.controller.state;
    const why =
      state.kind === 'failed'
        ? `it could not start: ${state.message}`
        : state.kind === 'running'
          ? 'it is switched off in the settings'
          : `it is ${state.kind}`;
    void vscode.window.showWarningMessage(`The Local API is not available: ${why}.`, 'Open Settings').then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'speechStudio.localApi');
    });
    return undefined;
  }
  void vscode.window.showInformationMessage(`Local API: ${url}`, 'Copy').then((choice) => {
    if (choice) void vscode.env.clipboard.writeText(url);
  });
  return url;
}

/** `{ confirm: false }` skips the question (for scripts and tests). Resolves with true when replaced. */
async function regenerateApiKey(services: Services, options: { confirm?: boolean } = {}): Promise<boolean> {
  if (options.confirm !== false) {
    const choice = await vscode.window.showWarningMessage(
      'Make a new Local API key? Scripts and tools using the current key stop working at once.',
      { modal: true },
      'Regenerate',
    );
    if (choice !== 'Regenerate') return false;
  }
  await services.keys.regenerate();
  services.log.info('The Local API key was regenerated; the previous key no longer works.');
  void vscode.window
    .showInformationMessage('A new Local API key is ready; the previous one no longer works.', 'Copy Key')
    .then((choice) => {
      if (choice) void vscode.env.clipboard.writeText(services.keys.get());
    });
  return true;
}

export function registerLocalApiCommands(services: Services): vscode.Disposable {
  const guard =
    <T>(what: string, run: () => Promise<T>) =>
    async () => {
      try {
        return await run();
      } catch (error) {
        reportError(services.log, what, error);
        return undefined;
      }
    };
  return vscode.Disposable.from(
    vscode.commands.registerCommand(
      'speechStudio.copyApiKey',
      guard('Copying the key failed', () => copyApiKey(services)),
    ),
    vscode.commands.registerCommand(
      'speechStudio.showBaseUrl',
      guard('Showing the address failed', () => showBaseUrl(services)),
    ),
    vscode.commands.registerCommand('speechStudio.regenerateApiKey', (options?: { confirm?: boolean }) =>
      guard('Regenerating the key failed', () => regenerateApiKey(services, options))(),
    ),
    vscode.commands.registerCommand('speechStudio.showLog', () => services.log.channel.show()),
    vscode.commands.registerCommand('speechStudio.showJobs', () =>
      vscode.commands.executeCommand('speechStudio.jobs.focus'),
    ),
  );
}
