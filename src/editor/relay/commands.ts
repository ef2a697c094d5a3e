/**
 * "Join Team Relay…" and "Leave Team Relay", and the status bar item that shows the link (online,
 * reconnecting, refused) while this window is a device of a team relay.
 */
import * as vscode from 'vscode';
import { DEVICE_TOKEN_FORMAT } from '../../link/protocol';
import { relayOrigin } from '../../link/relay-address';
import { isActive } from '../../jobs/types';
import { describeThrown } from '../../util/log';
import { reportError, type EditorLog } from '../log';
import type { ServerController } from '../server-controller';
import { readSettings, updateSetting } from '../settings';
import { relayStatus } from './link-state';
import type { RelayLink } from './relay-link';

/** What scripts and tests may pass instead of answering the input boxes. */
export interface JoinArguments {
  url?: string;
  token?: string;
}

const urlProblem = (value: string): string | undefined => {
  try {
    relayOrigin(value.trim());
    return undefined;
  } catch (error) {
    return describeThrown(error);
  }
};

const tokenProblem = (value: string): string | undefined =>
  DEVICE_TOKEN_FORMAT.test(value.trim())
    ? undefined
    : "A device token is ssd_ and 40 letters or digits, from the relay's portal (Devices → Enrol).";

/**
 * Asks for what is missing, stores the token in SecretStorage and switches the link on. The token is asked
 * for once: again only when the relay refused it (or none is stored). Resolves true once joined.
 */
async function join(link: RelayLink, given: JoinArguments = {}): Promise<boolean> {
  const settings = readSettings();
  let url = given.url?.trim() ?? settings.relay.url;
  if (!url || urlProblem(url)) {
    const typed = await vscode.window.showInputBox({
      title: 'Join Team Relay',
      prompt: "The team relay's address",
      placeHolder: 'https://relay.example.com',
      value: url,
      ignoreFocusOut: true,
      validateInput: urlProblem,
    });
    if (typed === undefined) return false;
    url = typed.trim();
  }
  const problem = urlProblem(url);
  if (problem) throw new Error(problem);
  let token = given.token?.trim();
  const stored = await link.token();
  const mustAsk = !stored || link.state.kind === 'refused' || link.state.kind === 'unavailable';
  if (token === undefined && mustAsk) {
    token = (
      await vscode.window.showInputBox({
        title: 'Join Team Relay',
        prompt: `The device token for ${url} (shown once when the device was enrolled)`,
        placeHolder: 'ssd_…',
        password: true,
        ignoreFocusOut: true,
        validateInput: tokenProblem,
      })
    )?.trim();
    if (token === undefined) return false;
  }
  if (token !== undefined) {
    const bad = tokenProblem(token);
    if (bad) throw new Error(bad);
    await link.storeToken(token);
  }
  if (url !== settings.relay.url) await updateSetting('relay.url', url);
  if (!settings.relay.enabled) await updateSetting('relay.enabled', true);
  await link.sync();
  return true;
}

/** Switches the link off and ends it at once; the URL and the token stay for the next join. */
async function leave(link: RelayLink): Promise<void> {
  await link.leave();
  if (readSettings().relay.enabled) await updateSetting('relay.enabled', false);
  await link.sync();
}

export function registerRelayCommands(
  link: RelayLink,
  controller: ServerController,
  log: EditorLog,
): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('speechStudio.relayStatus', vscode.StatusBarAlignment.Right, 99);
  item.name = 'Speech Studio Team Relay';
  const update = (): void => {
    const remote = controller.jobs().filter((job) => job.origin === 'remote' && isActive(job.status)).length;
    const status = relayStatus(link.state, remote);
    if (!status) return item.hide();
    item.text = status.text;
    item.tooltip = status.tooltip;
    // Read out in full: the state alone does not say why the relay refused.
    item.accessibilityInformation = { label: `${status.text.replace(/\$\([^)]*\)\s*/g, '')}. ${status.tooltip}` };
    item.command = status.command;
    item.backgroundColor = status.error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    item.show();
  };
  update();
  return vscode.Disposable.from(
    item,
    link.onDidChangeState(update),
    controller.onDidChangeJob((job) => (job.origin === 'remote' ? update() : undefined)),
    vscode.commands.registerCommand('speechStudio.joinTeamRelay', async (given?: JoinArguments) => {
      try {
        return await join(link, given ?? {});
      } catch (error) {
        reportError(log, 'Joining the team relay failed', error);
        return false;
      }
    }),
    vscode.commands.registerCommand('speechStudio.leaveTeamRelay', async () => {
      try {
        await leave(link);
      } catch (error) {
        reportError(log, 'Leaving the team relay failed', error);
      }
    }),
  );
}
