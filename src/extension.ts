import * as vscode from 'vscode';
import { startLocalServer, type LocalServer } from './server/local-server';
import type { Logger } from './util/log';

let server: LocalServer | undefined;

/** Starts the Local API in the extension host when it is switched on; the editor commands come later. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const channel = vscode.window.createOutputChannel('Speech Studio', { log: true });
  context.subscriptions.push(channel);
  const log: Logger = { info: (m) => channel.info(m), warn: (m) => channel.warn(m), error: (m) => channel.error(m) };
  const settings = vscode.workspace.getConfiguration('speechStudio.localApi');
  if (!settings.get<boolean>('enabled', true)) return;
  try {
    server = await startLocalServer({
      host: settings.get<string>('host', '127.0.0.1'),
      port: settings.get<number>('port', 17860),
      auth: settings.get<boolean>('auth', false),
      dataDir: context.globalStorageUri.fsPath,
      log,
    });
    log.info(`Speech Studio Local API listening on ${server.url}`);
  } catch (error) {
    log.error(`The Local API could not start: ${(error as Error).message}`);
  }
}

export async function deactivate(): Promise<void> {
  await server?.close();
  server = undefined;
}
