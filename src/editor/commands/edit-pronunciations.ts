/**
 * Edit Pronunciations…: the lexicon editor. One searchable list of the workspace's `.speech/lexicon.json`
 * and the server's lexicon (`<data dir>/lexicon.json`), each entry with ▶ (hear it spoken with the entry),
 * ✎ (type a new respelling or `phonemes: …`) and 🗑 (remove it, after a Delete / Keep question asked in the
 * same list, so nothing hides it). The workspace's entries win over the server's for the same word, as in
 * every editor job.
 */
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { LexiconEntry } from '../../contract/types';
import { removeEntry, replaceEntry } from '../../lexicon/lexicon-edits';
import { readLexicon, writeLexicon } from '../../lexicon/lexicon-file';
import { validateLexicon } from '../../lexicon/lexicon-validation';
import {
  entryFromInput,
  entryProblem,
  readWorkspaceLexicon,
  writeWorkspaceLexicon,
} from '../../lexicon/workspace-lexicon';
import { runWithProgress, succeeded } from '../job-progress';
import { reportError } from '../log';
import type { Services } from '../services';
import { workspaceLexiconFile } from '../workspace-lexicon';

type Place = 'workspace' | 'server';

interface EntryItem extends vscode.QuickPickItem {
  entry?: LexiconEntry;
  place?: Place;
  /** In the delete question: whether this row deletes. */
  confirm?: boolean;
}

const HEAR: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('play'), tooltip: 'Hear it' };
const EDIT: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Edit how to say it' };
const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete' };

/** What the entry says, as typed in Add Pronunciation: a respelling, or `phonemes: …`. */
const saidAs = (entry: LexiconEntry): string =>
  entry.phonemes !== undefined ? `phonemes: ${entry.phonemes}` : (entry.say ?? '');

async function readEntries(services: Services, place: Place): Promise<LexiconEntry[]> {
  if (place === 'server') return (await readLexicon(services.controller.dataDir)).entries;
  const file = workspaceLexiconFile();
  if (!file) return [];
  const read = await readWorkspaceLexicon(file);
  if (read.problem !== undefined) throw new Error(`Fix .speech/lexicon.json first: ${read.problem}`);
  // The entries as written, not as validated (which fills in defaults): an edit leaves the others as they were.
  return read.entries.length ? (JSON.parse(await readFile(file, 'utf8')) as { entries: LexiconEntry[] }).entries : [];
}

async function writeEntries(services: Services, place: Place, entries: LexiconEntry[]): Promise<void> {
  const checked = validateLexicon({ entries });
  if (!checked.ok) throw new Error(checked.message);
  if (place === 'server') return writeLexicon(services.controller.dataDir, { entries });
  const file = workspaceLexiconFile();
  if (!file) throw new Error('Open a folder first: the workspace lexicon is its .speech/lexicon.json.');
  return writeWorkspaceLexicon(file, { entries });
}

async function items(services: Services): Promise<EntryItem[]> {
  const result: EntryItem[] = [];
  for (const [place, heading] of [
    ['workspace', 'Workspace (.speech/lexicon.json)'],
    ['server', 'Speech Studio (all workspaces and the Local API)'],
  ] as const) {
    const entries = await readEntries(services, place);
    if (entries.length === 0) continue;
    result.push({ label: heading, kind: vscode.QuickPickItemKind.Separator });
    for (const entry of entries) {
      result.push({
        label: entry.text,
        description: `→ ${saidAs(entry)}${entry.language ? ` · ${entry.language}` : ''}`,
        buttons: [HEAR, EDIT, DELETE],
        entry,
        place,
      });
    }
  }
  return result;
}

/** Speaks the entry's word with the entry, in the player. */
async function hear(services: Services, entry: LexiconEntry): Promise<void> {
  const job = await runWithProgress(services.controller, `Pronouncing "${entry.text}"`, () =>
    services.editorJobs.createTts({ text: entry.text, lexicon: [entry] }),
  );
  if (succeeded(job))
    services.player.play((await services.editorJobs.outputPath(job))!, `${entry.text} (${saidAs(entry)})`);
}

async function edit(services: Services, place: Place, entry: LexiconEntry): Promise<boolean> {
  const typed = await vscode.window.showInputBox({
    title: `Edit Pronunciation: ${entry.text}`,
    prompt: 'How to say it: a respelling ("koh ah"), or "phonemes:" and espeak-ng phonemes ("phonemes: dZIf").',
    value: saidAs(entry),
    ignoreFocusOut: true,
    validateInput: (value) =>
      value.trim()
        ? entryProblem({
            ...entryFromInput(entry.text, value),
            ...(entry.language ? { language: entry.language } : {}),
          })
        : 'Type how to say it.',
  });
  if (typed === undefined) return false;
  const { say: _say, phonemes: _phonemes, alphabet: _alphabet, ...rest } = entry;
  const updated: LexiconEntry = { ...rest, ...entryFromInput(entry.text, typed) };
  await writeEntries(services, place, replaceEntry(await readEntries(services, place), entry, updated));
  void vscode.window.showInformationMessage(`Saved: "${entry.text}" is said "${typed.trim()}".`);
  return true;
}

async function remove(services: Services, place: Place, entry: LexiconEntry): Promise<void> {
  await writeEntries(services, place, removeEntry(await readEntries(services, place), entry));
  void vscode.window.showInformationMessage(`Deleted the pronunciation of "${entry.text}".`);
}

/** Opens the list; resolves when it is closed. */
export async function editPronunciations(services: Services): Promise<void> {
  const pick = vscode.window.createQuickPick<EntryItem>();
  pick.title = 'Pronunciations';
  pick.placeholder = 'Search the words; ▶ hears an entry, ✎ edits it, 🗑 deletes it; Enter edits';
  pick.matchOnDescription = true;
  pick.ignoreFocusOut = true;
  const placeholder = pick.placeholder;
  // The entry a Delete / Keep question is asked about, while the list shows that question.
  let deleting: { place: Place; entry: LexiconEntry } | undefined;
  const refresh = async (): Promise<void> => {
    deleting = undefined;
    pick.title = 'Pronunciations';
    pick.placeholder = placeholder;
    pick.items = await items(services);
    if (!pick.items.some((item) => item.entry))
      pick.placeholder = 'No pronunciations yet: select a word and run Add Pronunciation…';
  };
  const askDelete = (place: Place, entry: LexiconEntry): void => {
    deleting = { place, entry };
    pick.value = '';
    pick.title = `Delete the pronunciation of "${entry.text}"?`;
    pick.placeholder = `"${entry.text}" → ${saidAs(entry)}`;
    pick.items = [
      {
        label: '$(trash) Delete',
        description: `removes "${entry.text}" from the ${place === 'workspace' ? 'workspace' : 'Speech Studio'} lexicon`,
        confirm: true,
      },
      { label: 'Keep it', confirm: false },
    ];
  };
  const run = (what: string, work: () => Promise<unknown>): void => {
    work()
      .then(refresh)
      .catch((error: unknown) => reportError(services.log, what, error));
  };
  // Edit's input box hides the list while it is open; the list comes back after it.
  let editing = false;
  const editThen = (place: Place, entry: LexiconEntry): void => {
    editing = true;
    run('Editing the pronunciation failed', () =>
      edit(services, place, entry).finally(() => {
        editing = false;
        pick.show();
      }),
    );
  };
  await refresh();
  await new Promise<void>((resolve) => {
    const subscriptions = [
      pick.onDidTriggerItemButton(({ item, button }) => {
        const { entry, place } = item;
        if (!entry || !place) return;
        if (button === HEAR) run(`Hearing "${entry.text}" failed`, () => hear(services, entry));
        else if (button === EDIT) editThen(place, entry);
        else if (button === DELETE) askDelete(place, entry);
      }),
      pick.onDidAccept(() => {
        const { entry, place, confirm } = pick.selectedItems[0] ?? {};
        if (deleting) {
          const asked = deleting;
          if (confirm) run('Deleting the pronunciation failed', () => remove(services, asked.place, asked.entry));
          else void refresh();
        } else if (entry && place) editThen(place, entry);
      }),
      pick.onDidHide(() => {
        if (editing) return;
        for (const subscription of subscriptions) subscription.dispose();
        pick.dispose();
        resolve();
      }),
    ];
    pick.show();
  });
}

export function registerEditPronunciations(services: Services): vscode.Disposable {
  return vscode.commands.registerCommand('speechStudio.editPronunciations', async () => {
    try {
      await editPronunciations(services);
    } catch (error) {
      reportError(services.log, 'Opening the pronunciations failed', error);
    }
  });
}
