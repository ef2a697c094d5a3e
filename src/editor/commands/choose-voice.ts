/**
 * Choose Voice…: a quick pick of every voice, searchable by name, language name or code, in the order of
 * src/voices/picker-order.ts (current, favourites, installed, your language, then by language), each row with
 * its tier (natural / built-in), state ("installed", "download, 63 MB") and licence. Each row has a Preview
 * button (a sample sentence, played without closing the pick), a favourite toggle (kept in globalState) and a
 * button opening its licence and card; picking a voice that is not installed installs it in place. The choice becomes the default voice (setting
 * `speechStudio.tts.defaultVoice`) and, once installed, plays its preview.
 */
import * as vscode from 'vscode';
import type { Voice } from '../../contract/types';
import type { JobRecord } from '../../jobs/types';
import type { VoiceEntry } from '../../voices/library';
import { pickerRows, type PickerContext, type PickerRow, type PickerSection } from '../../voices/picker-order';
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
  row?: PickerRow;
}

const PREVIEW_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('play'), tooltip: 'Preview' };
const ADD_FAVOURITE: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('star-empty'),
  tooltip: 'Add to favourites',
};
const REMOVE_FAVOURITE: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('star-full'),
  tooltip: 'Remove from favourites',
};
const LICENCE_BUTTON: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('law'),
  tooltip: 'Open the licence and voice card',
};

const SECTION_LABELS: Record<Exclude<PickerSection, 'other' | 'your-language'>, string> = {
  current: 'Current voice',
  favourite: 'Favourites',
  installed: 'Installed',
};

function languageLabel(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code.split('-x-')[0]) ?? code;
  } catch {
    return code;
  }
}

/** The picker's items: its ordered rows (src/voices/picker-order.ts) under a separator per section, and per language after. */
export function voiceItems(entries: VoiceEntry[], context: PickerContext): VoiceItem[] {
  const items: VoiceItem[] = [];
  let heading: string | undefined;
  for (const row of pickerRows(entries, context, languageLabel)) {
    const title =
      row.section === 'other'
        ? languageLabel(row.entry.voice.languageCode.split('-')[0])
        : row.section === 'your-language'
          ? `${languageLabel(context.uiLanguage.split('-')[0])} (your language)`
          : SECTION_LABELS[row.section];
    if (title !== heading) items.push({ label: (heading = title), kind: vscode.QuickPickItemKind.Separator });
    items.push(voiceItem(row));
  }
  return items;
}

function voiceItem(row: PickerRow): VoiceItem {
  const { voice } = row.entry;
  const icon = row.section === 'current' ? '$(check) ' : row.state === 'installed' ? '' : '$(cloud-download) ';
  const about = voice.gender ? [voice.gender] : [];
  return {
    label: `${icon}${voice.name}`,
    description: `${row.tier === 'natural' ? 'Natural' : 'Built-in'} · ${voice.languageCode} · ${languageLabel(voice.languageCode)}${row.section === 'current' ? ' · current' : ''}`,
    detail: [row.state, voice.access.license, ...about].join(' · '),
    buttons: [
      PREVIEW_BUTTON,
      row.favourite ? REMOVE_FAVOURITE : ADD_FAVOURITE,
      ...(row.licenseUrl ? [LICENCE_BUTTON] : []),
    ],
    entry: row.entry,
    row,
  };
}

const FAVOURITES_KEY = 'speechStudio.favouriteVoices';

function favourites(services: Services): Set<string> {
  return new Set(services.context.globalState.get<string[]>(FAVOURITES_KEY, []));
}

/** Adds or removes a favourite voice (kept in globalState, so every window and workspace sees it). */
async function toggleFavourite(services: Services, voiceId: string): Promise<void> {
  const current = favourites(services);
  if (!current.delete(voiceId)) current.add(voiceId);
  await services.context.globalState.update(FAVOURITES_KEY, [...current]);
}

/** Asks before a preview downloads a voice; true to install. */
async function confirmInstall(entry: VoiceEntry): Promise<boolean> {
  const answer = await vscode.window.showInformationMessage(
    `${entry.voice.name} is not installed. Install it (${downloadLabel(entry)}) to preview it?`,
    'Install',
    'Cancel',
  );
  return answer === 'Install';
}

/**
 * Previews a voice; one that is not installed is installed first if `install` (or the user) says so.
 * Undefined when it was not installed.
 */
async function preview(
  services: Services,
  entry: VoiceEntry,
  options: { play?: boolean; install?: boolean },
): Promise<ChooseVoiceResult | undefined> {
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
async function choose(
  services: Services,
  entry: VoiceEntry,
  options: { play?: boolean },
): Promise<ChooseVoiceResult | undefined> {
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
    pick.items = voiceItems(services.voices.entries(), {
      currentId: services.editorJobs.defaultVoice().voice.id,
      favourites: favourites(services),
      uiLanguage: vscode.env.language,
    });
    const again = pick.items.find((item) => item.entry?.voice.id === active);
    if (again) pick.activeItems = [again];
  };
  refresh();
  return new Promise((resolve) => {
    const subscriptions = [
      pick.onDidTriggerItemButton(({ item, button }) => {
        if (!item.entry) return;
        if (button === LICENCE_BUTTON) {
          if (item.row?.licenseUrl) void vscode.env.openExternal(vscode.Uri.parse(item.row.licenseUrl));
          return;
        }
        if (button === ADD_FAVOURITE || button === REMOVE_FAVOURITE) {
          toggleFavourite(services, item.entry.voice.id).then(refresh, (error: unknown) =>
            reportError(services.log, 'Saving the favourite failed', error),
          );
          return;
        }
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
      const args =
        typeof first === 'object' && first !== null && !(first instanceof vscode.Uri)
          ? (first as ChooseVoiceArgs)
          : undefined;
      const result = await chooseVoice(services, args);
      return args ? result : result?.voice;
    } catch (error) {
      reportError(services.log, 'Choosing a voice failed', error);
      return undefined;
    }
  });
}
