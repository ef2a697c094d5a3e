/**
 * The Local API key, kept in VS Code's SecretStorage (never in settings). The server asks for the key
 * on every request and must get it synchronously, so the store keeps the current value in memory and
 * replaces it the moment a new key is made: the old key is refused from the very next request.
 */
import * as vscode from 'vscode';
import { generateApiKey, type ApiKeySource } from '../http/api-key';
import type { Logger } from '../util/log';

const SECRET_NAME = 'speechStudio.localApi.key';

export class SecretApiKeyStore implements ApiKeySource, vscode.Disposable {
  private key: string | undefined;
  private readonly subscription: vscode.Disposable;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after the key was replaced, here or in another window of the same profile. */
  readonly onDidChange = this.changed.event;

  private constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly log: Logger,
  ) {
    this.subscription = secrets.onDidChange(async (event) => {
      if (event.key !== SECRET_NAME) return;
      const stored = await secrets.get(SECRET_NAME);
      if (stored && stored !== this.key) {
        this.key = stored;
        this.log.info('The Local API key was replaced in another window; the previous key stopped working.');
        this.changed.fire();
      }
    });
  }

  /** Loads the key, creating one on first use. */
  static async open(secrets: vscode.SecretStorage, log: Logger): Promise<SecretApiKeyStore> {
    const store = new SecretApiKeyStore(secrets, log);
    store.key = await secrets.get(SECRET_NAME);
    if (!store.key) await store.regenerate();
    return store;
  }

  current(): string | undefined {
    return this.key;
  }

  /** The key; throws only if it could not be created at start-up. */
  get(): string {
    if (!this.key) throw new Error('The Local API key is not available; see the Speech Studio log.');
    return this.key;
  }

  /** Makes a new key; the old one stops working at once, before the secret store has even answered. */
  async regenerate(): Promise<string> {
    const key = generateApiKey();
    this.key = key;
    await this.secrets.store(SECRET_NAME, key);
    this.changed.fire();
    return key;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
