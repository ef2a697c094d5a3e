/**
 * The team relay link as the editor shows it (no `vscode` here, so it is unit-tested): the device client's
 * state folded into what a person needs to know, and the status bar words for each.
 */
import type { DeviceLinkState } from '../../link/protocol';

export type RelayLinkState =
  | { kind: 'off' }
  | { kind: 'connecting'; relay: string }
  | { kind: 'online'; relay: string; deviceId: string }
  | { kind: 'reconnecting'; relay: string }
  /** The relay turned the token down (or replaced this link): only a new token helps. */
  | { kind: 'refused'; relay: string; message: string }
  /** Joining cannot even start here: no token, a bad URL, the server not running. */
  | { kind: 'unavailable'; message: string };

/** The editor's view of a device client that is running (not closed by the editor). */
export function linkStateOf(
  relay: string,
  client: { state: DeviceLinkState; deviceId: string | undefined; problem: string | undefined },
): RelayLinkState {
  switch (client.state) {
    case 'connected':
      return { kind: 'online', relay, deviceId: client.deviceId ?? 'unknown' };
    case 'refused':
    case 'stopped':
      return { kind: 'refused', relay, message: client.problem ?? "The relay ended this device's link." };
    case 'disconnected':
      return { kind: 'reconnecting', relay };
    case 'connecting':
      return client.deviceId ? { kind: 'reconnecting', relay } : { kind: 'connecting', relay };
  }
}

export interface RelayStatus {
  text: string;
  tooltip: string;
  error: boolean;
  /** What clicking does: a new token where only that helps, else the log. */
  command: 'speechStudio.joinTeamRelay' | 'speechStudio.showLog';
}

/** The status bar item for the link; undefined while the link is off (no item then). */
export function relayStatus(state: RelayLinkState, remoteJobs: number): RelayStatus | undefined {
  const jobs = remoteJobs > 0 ? ` · ${remoteJobs} remote job${remoteJobs === 1 ? '' : 's'}` : '';
  switch (state.kind) {
    case 'off':
      return undefined;
    case 'connecting':
      return {
        text: '$(loading~spin) Relay connecting',
        tooltip: `Joining the team relay at ${state.relay}`,
        error: false,
        command: 'speechStudio.showLog',
      };
    case 'online':
      return {
        text: `$(cloud) Relay online${jobs}`,
        tooltip: `This VS Code runs jobs for the team relay at ${state.relay} as device ${state.deviceId}.`,
        error: false,
        command: 'speechStudio.showLog',
      };
    case 'reconnecting':
      return {
        text: `$(sync~spin) Relay reconnecting${jobs}`,
        tooltip: `The link to the team relay at ${state.relay} dropped; reconnecting.`,
        error: false,
        command: 'speechStudio.showLog',
      };
    case 'refused':
      return {
        text: '$(error) Relay refused',
        tooltip: `The team relay at ${state.relay} refused this device: ${state.message}\nClick to enter a new device token.`,
        error: true,
        command: 'speechStudio.joinTeamRelay',
      };
    case 'unavailable':
      return {
        text: '$(warning) Relay',
        tooltip: `Not joined to the team relay: ${state.message}\nClick to join.`,
        error: true,
        command: 'speechStudio.joinTeamRelay',
      };
  }
}
