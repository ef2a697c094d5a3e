/**
 * Choose Voice…: a quick pick of every ready voice, grouped by language and searchable by name, language
 * name or code. The choice becomes the default voice (setting `speechStudio.tts.defaultVoice`).
 */
import * as vscode from 'vscode';
import type { Voice } from '../../contract/types';
import { reportError } from '../log';
import type { Services } from '../services';
import { updateSetting } from '../settings';

interface VoiceItem extends vscode.QuickPickItem {
  voice?: Voice;
}

function languageLabel(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code.split('-x-')[0]) ?? code;
  } catch {
    return code;
  }
}

export function voiceItems(voices: Voice[], currentId: string): VoiceItem[] {
  const byLanguage = new Map<string, Voice[]>();
  for (const voice of voices) {
    const primary = voice.languageCode.split('-')[0];
    byLanguage.set(primary, [...(byLanguage.get(primary) ?? []), voice]);
  }
  const groups = [...byLanguage.entries()].sort(([a], [b]) => languageLabel(a).localeCompare(languageLabel(b)));
  return groups.flatMap(([primary, members]) => [
    { label: languageLabel(primary), kind: vscode.QuickPickItemKind.Separator },
    ...members.map((voice) => ({
      label: `${voice.id === currentId ? '$(check) ' : ''}${voice.name}`,
      description: `${voice.languageCode} · ${languageLabel(voice.languageCode)}`,
      detail: voice.gender ? `${voice.gender}${voice.creationMode ? `, ${voice.creationMode}` : ''}` : undefined,
      voice,
    })),
  ]);
}

export async function chooseVoice(services: Services, voiceId?: string): Promise<Voice | undefined> {
  let voice = voiceId ? services.voices.get(voiceId)?.voice : undefined;
  if (voiceId && !voice) throw new Error(`There is no voice ${voiceId}.`);
  if (!voice) {
    const all = services.voices.list({ scope: 'installed', sortBy: 'name', sortDirection: 'asc', page: 1, limit: 10_000 }).items;
    const current = services.editorJobs.defaultVoice().voice.id;
    const picked = await vscode.window.showQuickPick(voiceItems(all, current), {
      title: 'Choose Voice',
      placeHolder: 'Search by name, language or code (e.g. "french", "pt-BR")',
      matchOnDescription: true,
    });
    voice = picked?.voice;
  }
  if (!voice) return undefined;
  await updateSetting('tts.defaultVoice', voice.id);
  services.log.info(`Default voice: ${voice.name} (${voice.id})`);
  return voice;
}

export function registerChooseVoice(services: Services): vscode.Disposable {
  return vscode.commands.registerCommand('speechStudio.chooseVoice', async (voiceId?: unknown) => {
    try {
      return await chooseVoice(services, typeof voiceId === 'string' ? voiceId : undefined);
    } catch (error) {
      reportError(services.log, 'Choosing a voice failed', error);
      return undefined;
    }
  });
}
