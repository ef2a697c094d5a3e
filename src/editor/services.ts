/**
 * What the commands, views and the public API share; built once in `activate` and passed down, so each
 * feature module receives its dependencies instead of reaching for globals.
 */
import type * as vscode from 'vscode';
import type { VoiceLibrary } from '../voices/library';
import type { SecretApiKeyStore } from './api-key-store';
import type { AudioPlayer } from './audio-player';
import type { EditorJobs } from './editor-jobs';
import type { EditorLog } from './log';
import type { OutputRegistry } from './output-registry';
import type { ServerController } from './server-controller';
import type { Settings } from './settings';

export interface Services {
  context: vscode.ExtensionContext;
  log: EditorLog;
  controller: ServerController;
  editorJobs: EditorJobs;
  voices: VoiceLibrary;
  keys: SecretApiKeyStore;
  outputs: OutputRegistry;
  player: AudioPlayer;
  settings(): Settings;
}
