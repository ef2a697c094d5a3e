/**
 * This window's device link to the team relay: runs the device client on the extension host's own server
 * (the same job core as the editor and the Local API), started and stopped as the settings, the stored
 * device token and the server change. The token lives in SecretStorage, never in the settings.
 */
import * as vscode from 'vscode';
import { startDeviceClient, type DeviceClient } from '../../host/device-link';
import type { LocalServer } from '../../host/local-server';
import { describeThrown, type Logger } from '../../util/log';
import type { VoiceLibrary } from '../../voices/library';
import type { ServerController } from '../server-controller';
import { readSettings } from '../settings';
import { linkStateOf, type RelayLinkState } from './link-state';

const TOKEN_SECRET = 'speechStudio.relay.deviceToken';

interface Running {
  client: DeviceClient;
  server: LocalServer;
  url: string;
  token: string;
}

export interface RelayLinkOptions {
  controller: ServerController;
  secrets: vscode.SecretStorage;
  voices: VoiceLibrary;
  log: Logger;
}

export class RelayLink implements vscode.Disposable {
  private running: Running | undefined;
  private chain: Promise<void> = Promise.resolve();
  private current: RelayLinkState = { kind: 'off' };
  private disposed = false;
  private readonly changed = new vscode.EventEmitter<RelayLinkState>();
  private readonly subscriptions: vscode.Disposable[];
  readonly onDidChangeState = this.changed.event;

  constructor(private readonly options: RelayLinkOptions) {
    this.subscriptions = [
      options.controller.onDidChangeState(() => void this.sync()),
      options.secrets.onDidChange((event) => (event.key === TOKEN_SECRET ? void this.sync() : undefined)),
    ];
  }

  get state(): RelayLinkState {
    return this.current;
  }

  token(): Thenable<string | undefined> {
    return this.options.secrets.get(TOKEN_SECRET);
  }

  async storeToken(token: string): Promise<void> {
    await this.options.secrets.store(TOKEN_SECRET, token);
  }

  /**
   * Brings the link in line with the settings, the token and the server: starts, restarts or ends it.
   * Runs one at a time; each run reads everything afresh, so the last one wins.
   */
  sync(): Promise<void> {
    const next = this.chain
      .then(() => this.apply())
      .catch((error: unknown) => this.options.log.error(`Relay link: ${describeThrown(error)}`));
    this.chain = next;
    return next;
  }

  /** Ends the link at once (the relay sees the device offline), whatever the settings say until they change. */
  leave(): Promise<void> {
    const next = this.chain.then(() => this.end());
    this.chain = next;
    return next;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const subscription of this.subscriptions) subscription.dispose();
    await this.leave();
    this.changed.dispose();
  }

  private async apply(): Promise<void> {
    const { relay } = readSettings();
    const server =
      this.options.controller.state.kind === 'running'
        ? await this.options.controller.ready().catch(() => undefined)
        : undefined;
    const token = relay.enabled ? await this.token() : undefined;
    if (this.disposed || !relay.enabled) return this.end();
    if (!relay.url) return this.end({ kind: 'unavailable', message: 'no relay URL is set (speechStudio.relay.url).' });
    if (!token) return this.end({ kind: 'unavailable', message: 'no device token is stored: run "Join Team Relay…".' });
    if (!server) {
      const kind = this.options.controller.state.kind;
      // A (re)start is a moment: the link follows the server back up.
      if (kind === 'starting' || kind === 'restarting') return this.end({ kind: 'connecting', relay: relay.url });
      return this.end({ kind: 'unavailable', message: 'the Speech Studio server is not running.' });
    }
    const now = this.running;
    if (now && now.server === server && now.url === relay.url && now.token === token) return;
    await this.end();
    const { controller, voices, log } = this.options;
    let client: DeviceClient;
    try {
      client = startDeviceClient({
        relayUrl: relay.url,
        deviceToken: token,
        jobs: server.jobs,
        voices,
        dataDir: controller.dataDir,
        log,
        preferredSttModel: () => readSettings().sttDefaultModel || undefined,
        onStateChange: () => {
          if (this.running?.client === client) this.setState(linkStateOf(relay.url, client));
        },
      });
    } catch (error) {
      return this.setState({ kind: 'unavailable', message: describeThrown(error) });
    }
    this.running = { client, server, url: relay.url, token };
    log.info(`Joining the team relay at ${relay.url} as a device.`);
    this.setState(linkStateOf(relay.url, client));
  }

  private async end(then: RelayLinkState = { kind: 'off' }): Promise<void> {
    const running = this.running;
    this.running = undefined;
    if (running) {
      await running.client.close();
      this.options.log.info(`Left the team relay at ${running.url}.`);
    }
    this.setState(then);
  }

  private setState(state: RelayLinkState): void {
    if (JSON.stringify(state) === JSON.stringify(this.current)) return;
    this.current = state;
    if (!this.disposed) this.changed.fire(state);
  }
}
