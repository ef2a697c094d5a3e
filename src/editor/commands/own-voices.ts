/**
 * Create Voice from Recording…, Voice Mix… and Remove Voice…: the editor's door onto voices of your own
 * (src/jobs/voice-cloning.ts, src/voices/voice-mix.ts, src/voices/own-voices.ts). The engine makes the
 * reference and recognizes its words; the user confirms or corrects the text and the speaker's consent
 * before anything is saved. Each command takes its answers as arguments too, for tests and other extensions.
 */
import * as vscode from 'vscode';
import { CONSENT_STATEMENT, prepareReference, saveClonedVoice, ZIPVOICE_MODEL_ID } from '../../jobs/voice-cloning';
import { hasCode } from '../../contract/errors';
import { listOwnVoices, removeOwnVoice } from '../../voices/own-voices';
import { mixableSpeakers, mixKokoroVoice, parseMix } from '../../voices/voice-mix';
import type { Services } from '../services';

export interface CreateVoiceArgs {
  clip?: string;
  name?: string;
  /** The reference text as confirmed; the recognized text is offered when absent. */
  text?: string;
  consent?: boolean;
}

const CONSENT_YES = 'Yes, the speaker consented';

async function createVoiceFromRecording(
  services: Services,
  args: CreateVoiceArgs,
): Promise<{ id: string; name: string } | undefined> {
  const dataDir = services.controller.dataDir;
  const clip =
    args.clip ??
    (
      await vscode.window.showOpenDialog({
        title: 'Create Voice from Recording: 3–30 s of one person speaking',
        canSelectMany: false,
        openLabel: 'Use This Recording',
        filters: {
          'Audio and video': ['wav', 'mp3', 'm4a', 'flac', 'ogg', 'opus', 'webm', 'mp4', 'mov', 'mkv', 'aac'],
        },
      })
    )?.[0]?.fsPath;
  if (!clip) return undefined;
  const server = await services.controller.ready();
  const prepare = (text: string | undefined) =>
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Preparing the recording…', cancellable: true },
      (_progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort(new Error('Cancelled.')));
        return prepareReference(server.engine, dataDir, clip, { text, signal: controller.signal });
      },
    );
  let prepared;
  // What the recording says as the user gave it: as an argument, or typed when nothing can recognize it.
  let confirmedText = args.text;
  try {
    try {
      // Text given (already confirmed): nothing to recognize.
      prepared = await prepare(args.text);
    } catch (error) {
      // No recognizer installed: the user types what the recording says instead of meeting a refusal.
      if (!hasCode(error, 'NO_RECOGNIZER')) throw error;
      const typed = await vscode.window.showInputBox({
        title: 'What the recording says',
        prompt: 'No speech-to-text model is installed to recognize it: type the words, exactly as spoken.',
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim() ? undefined : 'Type what the recording says.'),
      });
      if (!typed?.trim()) return undefined;
      confirmedText = typed;
      prepared = await prepare(typed);
    }
  } catch (error) {
    if (hasCode(error, 'ZIPVOICE_NOT_INSTALLED')) {
      const install = 'Install ZipVoice';
      // Not awaited: the command ends with its refusal; the install starts if and when the user clicks.
      void vscode.window
        .showErrorMessage(error.message, install)
        .then((choice) =>
          choice === install
            ? vscode.commands.executeCommand('speechStudio.installModel', ZIPVOICE_MODEL_ID)
            : undefined,
        );
      return undefined;
    }
    void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
    return undefined;
  }
  try {
    const text =
      confirmedText ??
      (await vscode.window.showInputBox({
        title: 'What the recording says',
        value: prepared.text,
        ignoreFocusOut: true,
        prompt: prepared.text
          ? 'Recognized from the recording: correct it so it matches word for word.'
          : 'No words were recognized: type them, exactly as spoken.',
        validateInput: (value) => (value.trim() ? undefined : 'Type what the recording says.'),
      }));
    if (!text?.trim()) return undefined;
    const name =
      args.name ??
      (await vscode.window.showInputBox({
        title: 'Name the voice',
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim() ? undefined : 'A voice needs a name.'),
      }));
    if (!name) return undefined;
    const consent =
      args.consent ??
      (await vscode.window.showWarningMessage(
        CONSENT_STATEMENT,
        {
          modal: true,
          detail:
            'A voice is cloned only with the consent of the person speaking. Your confirmation is recorded with the voice.',
        },
        CONSENT_YES,
      )) === CONSENT_YES;
    const saved = await saveClonedVoice(services.voices, dataDir, prepared, { name, text, consent });
    void vscode.window.showInformationMessage(
      `${saved.name} is ready in Choose Voice (cloned from ${prepared.speechSeconds} s of speech).`,
    );
    return { id: saved.id, name: saved.name };
  } catch (error) {
    void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
    return undefined;
  } finally {
    await prepared.staged.discard();
  }
}

export interface VoiceMixArgs {
  /** `af_bella:0.6,am_adam:0.4` */
  mix?: string;
  name?: string;
}

async function voiceMix(services: Services, args: VoiceMixArgs): Promise<{ id: string; name: string } | undefined> {
  let mix = args.mix;
  if (mix === undefined) {
    const speakers = mixableSpeakers(services.voices).filter((entry) => entry.voice.availability === 'ready');
    if (speakers.length === 0) {
      void vscode.window.showErrorMessage(
        'Voice Mix blends Kokoro speakers, and no Kokoro model is installed: install one first (Install Model…).',
      );
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      speakers.map((entry) => ({ label: entry.voice.name, description: entry.engineVoiceId.split('#')[1], entry })),
      {
        title: 'Voice Mix: the Kokoro speakers to blend',
        canPickMany: true,
        matchOnDescription: true,
      },
    );
    if (!picked?.length) return undefined;
    const weights: string[] = [];
    for (const item of picked) {
      const weight = await vscode.window.showInputBox({
        title: `Weight of ${item.label}`,
        value: (1 / picked.length).toFixed(2),
        validateInput: (value) => (Number(value) > 0 ? undefined : 'A weight above 0.'),
      });
      if (weight === undefined) return undefined;
      weights.push(`${item.description}:${weight}`);
    }
    mix = weights.join(',');
  }
  const name =
    args.name ??
    (await vscode.window.showInputBox({
      title: 'Name the mixed voice',
      validateInput: (value) => (value.trim() ? undefined : 'A voice needs a name.'),
    }));
  if (!name) return undefined;
  try {
    const saved = await mixKokoroVoice(services.voices, services.controller.dataDir, parseMix(mix), name);
    void vscode.window.showInformationMessage(`${saved.name} is ready in Choose Voice (designed).`);
    return saved;
  } catch (error) {
    void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
    return undefined;
  }
}

async function removeVoice(services: Services, nameOrId?: string): Promise<string | undefined> {
  const wanted =
    nameOrId ??
    (
      await vscode.window.showQuickPick(
        listOwnVoices(services.voices).map((voice) => ({ label: voice.name, description: voice.creationMode })),
        { title: 'Remove a voice of your own' },
      )
    )?.label;
  if (!wanted) return undefined;
  const removed = await removeOwnVoice(services.voices, services.controller.dataDir, wanted);
  if (!removed) {
    void vscode.window.showErrorMessage(`No cloned or designed voice is named ${JSON.stringify(wanted)}.`);
    return undefined;
  }
  void vscode.window.showInformationMessage(`Removed ${removed.name}.`);
  return removed.name;
}

export function registerOwnVoices(services: Services): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand('speechStudio.createVoiceFromRecording', (args?: CreateVoiceArgs) =>
      createVoiceFromRecording(services, args ?? {}),
    ),
    vscode.commands.registerCommand('speechStudio.voiceMix', (args?: VoiceMixArgs) => voiceMix(services, args ?? {})),
    vscode.commands.registerCommand('speechStudio.removeOwnVoice', (nameOrId?: unknown) =>
      removeVoice(services, typeof nameOrId === 'string' ? nameOrId : undefined),
    ),
  );
}
