/** Registers Read Aloud: the three ways to start it, its controls, and a status command for tests and tools. */
import * as vscode from 'vscode';
import { reportError } from '../log';
import type { Services } from '../services';
import { READ_ALOUD_COMMANDS, ReadAloud, type ReadScope } from './read-aloud';

const STARTS: Record<string, ReadScope> = {
  'speechStudio.readAloud.fromCursor': 'cursor',
  'speechStudio.readAloud.selection': 'selection',
  'speechStudio.readAloud.document': 'document',
};

export function registerReadAloud(services: Services): vscode.Disposable {
  const readAloud = new ReadAloud(services);
  return vscode.Disposable.from(
    readAloud,
    ...Object.entries(STARTS).map(([command, scope]) =>
      vscode.commands.registerCommand(command, async () => {
        try {
          return await readAloud.read(scope);
        } catch (error) {
          reportError(services.log, 'Read Aloud failed', error);
          return undefined;
        }
      }),
    ),
    ...READ_ALOUD_COMMANDS.map((name) =>
      vscode.commands.registerCommand(`speechStudio.readAloud.${name}`, () => readAloud.control(name)),
    ),
    vscode.commands.registerCommand('speechStudio.readAloud.status', () => readAloud.status()),
    vscode.commands.registerCommand('speechStudio.readAloud.chooseSpeed', () => readAloud.chooseSpeed()),
  );
}
