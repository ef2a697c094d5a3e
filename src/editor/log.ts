/**
 * The one log of the extension: the server, the engine and the commands all write to the same
 * LogOutputChannel, so a user reporting a problem has one place to copy from.
 */
import * as vscode from 'vscode';
import { describeThrown, type Logger } from '../util/log';

export interface EditorLog extends Logger, vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
}

export function createLog(name = 'Speech Studio'): EditorLog {
  const channel = vscode.window.createOutputChannel(name, { log: true });
  return {
    channel,
    info: (message) => channel.info(message),
    warn: (message) => channel.warn(message),
    error: (message) => channel.error(message),
    dispose: () => channel.dispose(),
  };
}

/**
 * Shows a failed command's message (a sentence for the user, never a stack) and logs it in full.
 * A "Show Log" button opens the channel.
 */
export function reportError(log: EditorLog, what: string, error: unknown): void {
  const message = describeThrown(error);
  log.error(`${what}: ${error instanceof Error && error.stack ? error.stack : message}`);
  void vscode.window.showErrorMessage(`${what}: ${message}`, 'Show Log').then((choice) => {
    if (choice === 'Show Log') log.channel.show(true);
  });
}
