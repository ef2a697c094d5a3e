/**
 * The extension's settings, typed and read all at once. `RESTART_KEYS` lists the ones the running server
 * cannot take on the fly; `watchSettings` reports every change at once and restarts with a debounce.
 */
import * as vscode from 'vscode';
import { sttModelFileName } from '../models/catalog';

export const SECTION = 'speechStudio';

export interface Settings {
  localApi: {
    enabled: boolean;
    host: string;
    port: number;
    auth: boolean;
    queueCapacity: number;
  };
  /** Absolute folder for jobs and models; empty means the extension's global storage. */
  dataDirectory: string;
  sttDefaultModel: string;
  ttsDefaultVoice: string;
  /** Subtitle narration: voice ids by speaker name (`<v Name>` tags, `Name:` prefixes). */
  ttsSpeakerVoices: Record<string, string>;
  ffmpegPath: string;
  modelMirror: string;
  /** Export Audiobook…: verified takes (off, or on with a threshold — undefined: the scorer's default — and retakes). */
  audiobookVerify: { enabled: boolean; threshold?: number; retakes: number };
  /** The team relay this window joins as a device (the token is in SecretStorage); applies without a restart. */
  relay: { url: string; enabled: boolean };
}

/** Setting keys (below `speechStudio.`) that need a new server: address, storage, queue and engine. */
export const RESTART_KEYS = [
  'localApi.enabled',
  'localApi.host',
  'localApi.port',
  'localApi.queueCapacity',
  'dataDirectory',
  'stt.defaultModel',
  'ffmpegPath',
] as const;

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration(SECTION);
  return {
    localApi: {
      enabled: c.get<boolean>('localApi.enabled', true),
      host: c.get<string>('localApi.host', '127.0.0.1').trim() || '127.0.0.1',
      port: integerIn(c.get<number>('localApi.port', 17860), 0, 65535, 17860),
      auth: c.get<boolean>('localApi.auth', false),
      queueCapacity: integerIn(c.get<number>('localApi.queueCapacity', 32), 1, 10_000, 32),
    },
    dataDirectory: c.get<string>('dataDirectory', '').trim(),
    // A catalog id (e.g. a Parakeet model's) names the file it installs.
    sttDefaultModel: sttModelFileName(c.get<string>('stt.defaultModel', '').trim()),
    ttsDefaultVoice: c.get<string>('tts.defaultVoice', '').trim(),
    ttsSpeakerVoices: stringMap(c.get<unknown>('tts.speakerVoices', {})),
    ffmpegPath: c.get<string>('ffmpegPath', '').trim(),
    modelMirror: c.get<string>('models.mirror', '').trim(),
    audiobookVerify: {
      enabled: c.get<boolean>('audiobook.verifyTakes', false) === true,
      ...numberIn(c.get<unknown>('audiobook.verifyThreshold', null), 0, 1),
      retakes: integerIn(c.get<number>('audiobook.verifyRetakes', 2), 0, 10, 2),
    },
    relay: { url: c.get<string>('relay.url', '').trim(), enabled: c.get<boolean>('relay.enabled', false) },
  };
}

function stringMap(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== '',
    ),
  );
}

/** `{ threshold }` when the setting is a number in range, else nothing (the default applies). */
function numberIn(value: unknown, min: number, max: number): { threshold?: number } {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max
    ? { threshold: value }
    : {};
}

function integerIn(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : fallback;
}

export interface SettingsWatcher {
  /** Every change, at once, with the settings read afresh: for what applies without a restart. */
  onDidChange(settings: Settings): void;
  /**
   * Once changes to RESTART_KEYS have been quiet for the debounce time, so that typing a port number digit
   * by digit restarts the server once.
   */
  onRestartNeeded(settings: Settings): void;
}

/**
 * Reports setting changes; restarts are debounced.
 * @example context.subscriptions.push(watchSettings({ onDidChange: apply, onRestartNeeded: () => controller.restart() }));
 */
export function watchSettings(watcher: SettingsWatcher, debounceMs = 400): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  const subscription = vscode.workspace.onDidChangeConfiguration((event) => {
    if (!event.affectsConfiguration(SECTION)) return;
    watcher.onDidChange(readSettings());
    if (!RESTART_KEYS.some((key) => event.affectsConfiguration(`${SECTION}.${key}`))) return;
    clearTimeout(timer);
    timer = setTimeout(() => watcher.onRestartNeeded(readSettings()), debounceMs);
  });
  return new vscode.Disposable(() => {
    clearTimeout(timer);
    subscription.dispose();
  });
}

/** Writes a setting for the user (these settings are application-wide, not per workspace). */
export function updateSetting(key: string, value: unknown): Thenable<void> {
  return vscode.workspace.getConfiguration(SECTION).update(key, value, vscode.ConfigurationTarget.Global);
}
