/**
 * Choose Voice…: a quick pick of every voice, grouped by language and searchable by name, language name or
 * code; in each language the installed voices come first, then the catalog's voices to download with their
 * size and licence. Each has a Preview button (a sample sentence, played without closing the pick); picking
 * a voice that is not installed installs it in place. The choice becomes the default voice (setting
 * `speechStudio.tts.defaultVoice`) and, once installed, plays its preview.
 */
import * as vscode from 'vscode';
import type { Voice } from '../../contract/types';
import type { JobRecord } from '../../jobs/types';
import type { VoiceEntry } from '../../voices/library';
import { voiceDownload } from '../../voices/voice-download';
import { isReadyVoice } from '../../voices/voice-entry';
import { reportError } from '../log';
import type { Services } from '../services';
import { downloadLabel, installVoice, makeDefaultVoice, previewVoice } from '../voice-actions';

/** Arguments that let a test, a walkthrough or another command skip the pick. */
export interface ChooseVoiceArgs {
  voiceId: string;
  /** `choose` (default): install when needed, make it the default voice and preview it; `preview`: only preview. */
  action?: 'choose' | 'preview';
  /** Play the preview in the player (default true). */
  play?: boolean;
  /** Previewing a voice that is not installed: install it first without asking (default: ask). */
  install?: boolean;
}

export interface ChooseVoiceResult {
  voice: Voice;
  /** True when this command downloaded the voice. */
  installed: boolean;
  /** The sample sentence's job, when one was spoken. */
  preview?: JobRecord;
}

interface VoiceItem extends vscode.QuickPickItem {
  entry?: VoiceEntry;
}

const PREVIEW_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('play'), tooltip: 'Preview' };

function languageLabel(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code.split('-x-')[0]) ?? code;
  } catch {
    return code;
  }
}

/** Ready voices, and the not-installed voices the catalog can install (SVOX Pico's lingware is installed apart). */
function offeredVoices(services: Services): VoiceEntry[] {
  return services.voices.entries().filter((entry) => isReadyVoice(entry.voice) || voiceDownload(entry) !== undefined);
}

export function voiceItems(entries: VoiceEntry[], currentId: string): VoiceItem[] {
  const byLanguage = new Map<string, VoiceEntry[]>();
  for (const entry of entries) {
    const primary = entry.voice.languageCode.split('-')[0];
    byLanguage.set(primary, [...(byLanguage.get(primary) ?? []), entry]);
  }
  const collator = new Intl.Collator('en', { sensitivity: 'base' });
  const installedFirst = (a: VoiceEntry, b: VoiceEntry): number =>
    Number(isReadyVoice(b.voice)) - Number(isReadyVoice(a.voice)) || collator.compare(a.voice.name, b.voice.name);
  const groups = [...byLanguage.entries()].sort(([a], [b]) => languageLabel(a).localeCompare(languageLabel(b)));
  return groups.flatMap(([primary, members]) => [
    { label: languageLabel(primary), kind: vscode.QuickPickItemKind.Separator },
    ...members.sort(installedFirst).map((entry) => voiceItem(entry, currentId)),
  ]);
}

function voiceItem(entry: VoiceEntry, currentId: string): VoiceItem {
  const { voice } = entry;
  const ready = isReadyVoice(voice);
  const about = voice.gender ? `${voice.gender}${voice.creationMode ? `, ${voice.creationMode}` : ''}` : undefined;
  return {
    label: `${voice.id === currentId ? '$(check) ' : ready ? '' : '$(cloud-download) '}${voice.name}`,
    description: `${voice.languageCode} · ${languageLabel(voice.languageCode)}`,
    detail: ready ? about : `${voice.availability === 'installing' ? 'Installing' : 'Not installed'}: ${downloadLabel(entry)}${about ? ` · ${about}` : ''}`,
    buttons: [PREVIEW_BUTTON],
    entry,
  };
}

/** Asks before a preview downloads a voice; true to install. */
async function confirmInstall(entry: VoiceEntry): Promise<boolean> {
  const answer = await vscode.window.showInformationMessage(`${entry.voice.name} is not installed. Install it (${downloadLabel(entry)}) to preview it?`, 'Install', 'Cancel');
  return answer === 'Install';
}

/**
 * Previews a voice; one that is not installed is installed first if `install` (or the user) says so.
 * Undefined when it was not installed.
 */
async function preview(services: Services, entry: VoiceEntry, options: { play?: boolean; install?: boolean }): Promise<ChooseVoiceResult | undefined> {
  let installed = false;
  if (!isReadyVoice(entry.voice)) {
    if (!(options.install ?? (await confirmInstall(entry)))) return undefined;
    const ready = await installVoice(services, entry);
    if (!ready) return undefined;
    entry = ready;
    installed = true;
  }
  return { voice: entry.voice, installed, preview: await previewVoice(services, entry, options) };
}

/** Makes the voice the default, installing it first when needed, then previews it. Undefined when the install was cancelled. */
async function choose(services: Services, entry: VoiceEntry, options: { play?: boolean }): Promise<ChooseVoiceResult | undefined> {
  const wasReady = isReadyVoice(entry.voice);
  const ready = await installVoice(services, entry);
  if (!ready) return undefined;
  await makeDefaultVoice(services, ready);
  if (wasReady) return { voice: ready.voice, installed: false };
  return { voice: ready.voice, installed: true, preview: await previewVoice(services, ready, options) };
}

/** The quick pick; resolves with the voice accepted, undefined when dismissed. Preview buttons work while it is open. */
function pickVoice(services: Services): Promise<VoiceEntry | undefined> {
  const pick = vscode.window.createQuickPick<VoiceItem>();
  pick.title = 'Choose Voice';
  pick.placeholder = 'Search by name, language or code (e.g. "french", "pt-BR"); ▶ previews a voice';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  // A preview's notification and the player must not close the pick.
  pick.ignoreFocusOut = true;
  const refresh = (): void => {
    const active = pick.activeItems[0]?.entry?.voice.id;
    pick.items = voiceItems(offeredVoices(services), services.editorJobs.defaultVoice().voice.id);
    const again = pick.items.find((item) => item.entry?.voice.id === active);
    if (again) pick.activeItems = [again];
  };
  refresh();
  return new Promise((resolve) => {
    const subscriptions = [
      pick.onDidTriggerItemButton(({ item }) => {
        if (!item.entry) return;
        preview(services, item.entry, {})
          .then((result) => result?.installed && refresh())
          .catch((error: unknown) => reportError(services.log, `Previewing ${item.entry!.voice.name} failed`, error));
      }),
      pick.onDidAccept(() => {
        resolve(pick.selectedItems[0]?.entry);
        pick.hide();
      }),
      pick.onDidHide(() => {
        resolve(undefined);
        for (const subscription of subscriptions) subscription.dispose();
        pick.dispose();
      }),
    ];
    pick.show();
  });
}

export async function chooseVoice(services: Services, args?: ChooseVoiceArgs): Promise<ChooseVoiceResult | undefined> {
  const entry = args ? services.voices.get(args.voiceId) : await pickVoice(services);
  if (args && !entry) throw new Error(`There is no voice ${args.voiceId}.`);
  if (!entry) return undefined;
  if (args?.action === 'preview') return preview(services, entry, args);
  return choose(services, entry, { play: args?.play });
}

export function registerChooseVoice(services: Services): vscode.Disposable {
  return vscode.commands.registerCommand('speechStudio.chooseVoice', async (first?: unknown) => {
    try {
      // A voice id alone (the walkthrough, older callers) chooses that voice and answers with the voice.
      if (typeof first === 'string') return (await chooseVoice(services, { voiceId: first }))?.voice;
      const args = typeof first === 'object' && first !== null && !(first instanceof vscode.Uri) ? (first as ChooseVoiceArgs) : undefined;
      const result = await chooseVoice(services, args);
      return args ? result : result?.voice;
    } catch (error) {
      reportError(services.log, 'Choosing a voice failed', error);
      return undefined;
    }
  });
}
