/** The first-run walkthrough: its progress tracking, its buttons, and **Speech Studio: Get Started**. */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { registerWalkthroughCommands } from './commands';
import { WalkthroughProgress } from './progress';

export const WALKTHROUGH_ID = 'speech-studio.speech-studio#gettingStarted';

export function registerWalkthrough(services: Services): vscode.Disposable {
  const progress = new WalkthroughProgress(services);
  return vscode.Disposable.from(
    progress,
    registerWalkthroughCommands(services, progress),
    vscode.commands.registerCommand('speechStudio.openWalkthrough', () =>
      vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false),
    ),
  );
}
