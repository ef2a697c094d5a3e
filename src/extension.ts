/**
 * Activation: builds the parts of the extension, registers them, and returns the API for other
 * extensions. Nothing heavy happens here: the server is light, and the engine process starts when the
 * first job needs it.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { createVoiceLibrary } from './voices/library';
import { createApi, type SpeechStudioApi } from './editor/extension-api';
import { SecretApiKeyStore } from './editor/api-key-store';
import { AudioPlayer } from './editor/audio-player';
import { registerAddPronunciation } from './editor/commands/add-pronunciation';
import { registerChooseVoice } from './editor/commands/choose-voice';
import { registerExportAudiobook } from './editor/commands/export-audiobook';
import { registerTranslateSubtitles } from './editor/commands/translate-subtitles';
import { registerDubMedia } from './editor/commands/dub-media';
import { registerCastCharacters } from './editor/commands/cast-characters';
import { registerInstallModel } from './editor/commands/install-model';
import { registerOwnVoices } from './editor/commands/own-voices';
import { registerModelFiles } from './editor/commands/model-files';
import { registerLocalApiCommands } from './editor/commands/local-api';
import { registerNarrateSelection } from './editor/commands/narrate-selection';
import { registerSsmlCompletions } from './editor/ssml/ssml-completions';
import { registerSsmlDiagnostics } from './editor/ssml/ssml-diagnostics';
import { registerSaveNarration } from './editor/commands/save-narration';
import { registerEditPronunciations } from './editor/commands/edit-pronunciations';
import { registerNarrateSubtitles } from './editor/commands/narrate-subtitles';
import { registerProofListening } from './editor/proof-listen/register';
import { registerReadAloud } from './editor/read-aloud/register';
import { registerTranscribe } from './editor/commands/transcribe';
import { EditorJobs } from './editor/editor-jobs';
import { registerJobsView } from './editor/jobs-view';
import { registerLanguageModelTools } from './editor/lm-tools';
import { createLog } from './editor/log';
import { OutputRegistry } from './editor/output-registry';
import { registerRelayCommands } from './editor/relay/commands';
import { RelayLink } from './editor/relay/relay-link';
import { ServerController } from './editor/server-controller';
import type { Services } from './editor/services';
import { readSettings, updateSetting, watchSettings } from './editor/settings';
import { registerExposureWarning, registerStatusBar } from './editor/status-bar';
import { registerSubtitleEditing } from './editor/subtitles/register';
import { registerRetranscribeCues } from './editor/subtitles/retranscribe-cues';
import { registerSnapToSpeech } from './editor/subtitles/snap-to-speech';
import { registerAlignCommands } from './editor/subtitles/align-commands';
import { registerWalkthrough } from './editor/walkthrough/register';
import { workspaceLexiconReader } from './editor/workspace-lexicon';

export type { SpeechStudioApi, SpeechStudioJob } from './editor/extension-api';

let controller: ServerController | undefined;
let relayLink: RelayLink | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<SpeechStudioApi> {
  const log = createLog();
  context.subscriptions.push(log);
  let settings = readSettings();
  const keys = await SecretApiKeyStore.open(context.secrets, log);
  const server = new ServerController(settings, {
    defaultDataDir: context.globalStorageUri.fsPath,
    engineWorkerPath: path.join(context.extensionPath, 'dist', 'engine-worker.js'),
    apiKeys: keys,
    log,
  });
  controller = server;
  const voices = createVoiceLibrary({ dataDir: () => server.dataDir });
  const editorJobs = new EditorJobs({
    server: () => server.ready(),
    voices,
    dataDir: () => server.dataDir,
    defaultVoiceId: () => settings.ttsDefaultVoice,
    preferredSttModel: () => settings.sttDefaultModel || undefined,
    editorLanguage: () => vscode.env.language,
    workspaceLexicon: workspaceLexiconReader(log),
    testHooks: () => server.testHooks(),
  });
  const link = new RelayLink({ controller: server, secrets: context.secrets, voices, log });
  relayLink = link;
  const player = new AudioPlayer(context.extensionUri, log);
  const services: Services = {
    context,
    log,
    controller: server,
    editorJobs,
    voices,
    keys,
    player,
    outputs: new OutputRegistry(context.globalState),
    settings: () => settings,
  };

  context.subscriptions.push(
    keys,
    player,
    registerExposureWarning(server, () => updateSetting('localApi.auth', true)),
    registerStatusBar(server),
    registerJobsView(services),
    registerTranscribe(services),
    registerNarrateSelection(services),
    registerSsmlDiagnostics(),
    registerSsmlCompletions(),
    registerSaveNarration(services),
    registerEditPronunciations(services),
    registerNarrateSubtitles(services),
    registerAddPronunciation(services),
    registerExportAudiobook(services),
    registerTranslateSubtitles(services),
    registerDubMedia(services),
    registerCastCharacters(services),
    registerReadAloud(services),
    registerProofListening(services),
    registerSubtitleEditing(services),
    registerSnapToSpeech(services),
    registerAlignCommands(services),
    registerRetranscribeCues(services),
    registerChooseVoice(services),
    registerInstallModel(services),
    registerOwnVoices(services),
    registerModelFiles(services),
    registerLocalApiCommands(services),
    registerRelayCommands(link, server, log),
    registerWalkthrough(services),
    registerLanguageModelTools(services),
    watchSettings({
      onDidChange: (changed) => {
        settings = changed;
        server.update(changed);
        void link.sync();
      },
      onRestartNeeded: (changed) => void server.restart(changed),
    }),
  );
  // Not awaited: activation returns at once; commands wait for the server through `ready()`.
  void server.start();
  void link.sync();
  return createApi(services);
}

/**
 * Leaves the team relay first (its jobs go back to the relay at once), then stops the server: running jobs
 * become interrupted, the engine process ends, the job store is flushed.
 */
export async function deactivate(): Promise<void> {
  await relayLink?.dispose();
  relayLink = undefined;
  await controller?.dispose();
  controller = undefined;
}
