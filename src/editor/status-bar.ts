/**
 * The status bar item: the server's state and port (the full address in the hover), and while jobs run,
 * how many and how far.
 * Clicking it opens the Jobs view.
 */
import * as vscode from 'vscode';
import { isActive } from '../jobs/types';
import type { ServerController, ServerState } from './server-controller';

export function statusText(
  state: ServerState,
  active: { count: number; progress: number },
): { text: string; tooltip: string; error: boolean } {
  const jobs =
    active.count > 0 ? ` $(sync~spin) ${active.count} job${active.count === 1 ? '' : 's'} ${active.progress}%` : '';
  switch (state.kind) {
    case 'running': {
      const port = /:(\d+)\/v1$/.exec(state.url)?.[1] ?? state.url;
      return state.apiEnabled
        ? {
            text: `$(radio-tower) ${port}${jobs}`,
            tooltip: `Speech Studio Local API at ${state.url}${state.auth ? ' (bearer auth on)' : ''}`,
            error: false,
          }
        : {
            text: `$(circle-slash) Speech Studio${jobs}`,
            tooltip: 'The Local API is switched off; editor commands still run.',
            error: false,
          };
    }
    case 'starting':
      return { text: '$(loading~spin) Speech Studio', tooltip: 'The Local API is starting', error: false };
    case 'restarting':
      return {
        text: `$(loading~spin) Speech Studio${jobs}`,
        tooltip: state.waitingForJobs
          ? 'Settings changed: the server restarts when the running job ends.'
          : 'The Local API is restarting',
        error: false,
      };
    case 'failed':
      return {
        text: '$(error) Speech Studio',
        tooltip: `The Local API could not start: ${state.message}`,
        error: true,
      };
    case 'stopped':
      return { text: '$(debug-stop) Speech Studio', tooltip: 'The Local API is stopped', error: false };
  }
}

export function registerStatusBar(controller: ServerController): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('speechStudio.status', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Speech Studio';
  item.command = 'speechStudio.showJobs';
  const update = (): void => {
    const running = controller.jobs().filter((job) => isActive(job.status));
    const progress = running.length
      ? Math.floor(running.reduce((sum, job) => sum + job.progress, 0) / running.length)
      : 0;
    const { text, tooltip, error } = statusText(controller.state, { count: running.length, progress });
    item.text = text;
    item.tooltip = `${tooltip}\nClick to show the jobs.`;
    item.backgroundColor = error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    item.show();
  };
  update();
  return vscode.Disposable.from(item, controller.onDidChangeState(update), controller.onDidChangeJob(update));
}

/**
 * Warns once per session when the API listens on all interfaces with authentication off, with a button
 * that turns authentication on.
 */
export function registerExposureWarning(
  controller: ServerController,
  turnAuthOn: () => Thenable<void>,
): vscode.Disposable {
  let warned = false;
  return controller.onDidChangeState((state) => {
    if (state.kind !== 'running' || !state.exposed || warned) return;
    warned = true;
    void vscode.window
      .showWarningMessage(
        `The Speech Studio Local API listens on all interfaces (${state.url}) with authentication off: any machine that can reach this port can use it.`,
        'Turn On Authentication',
      )
      .then((choice) => (choice ? turnAuthOn() : undefined));
  });
}
