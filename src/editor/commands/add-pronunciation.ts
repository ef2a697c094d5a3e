/**
 * Add Pronunciation…: the selected word or phrase, a respelling (or `phonemes:` and espeak-ng phonemes) typed
 * for it, a preview spoken with the entry through the editor's job path, then Save / Try Again / Cancel;
 * Save adds or updates the entry in the workspace's `.speech/lexicon.json`.
 */
import * as vscode from 'vscode';
import type { LexiconEntry } from '../../contract/types';
import { ttsResultOf, type JobRecord } from '../../jobs/types';
import { entryFromInput, entryProblem, withEntry, writeWorkspaceLexicon } from '../../lexicon/workspace-lexicon';
import { runWithProgress, succeeded } from '../job-progress';
import { reportError } from '../log';
import type { Services } from '../services';
import { workspaceLexiconFile } from '../workspace-lexicon';

export type PronunciationChoice = 'Save' | 'Try Again' | 'Cancel';

/** Arguments that let a test or a quick fix skip the dialogs. */
export interface AddPronunciationArgs {
  /** The word or phrase; default: the editor's selection. */
  text?: string;
  /** What to say: a respelling, or `phonemes: dZIf`; default: asked in an input box. */
  say?: string;
  /** The answer to Save / Try Again / Cancel after the preview; default: asked. */
  choice?: PronunciationChoice;
  /** Play the preview in the player (default true). */
  play?: boolean;
}

export interface AddPronunciationResult {
  entry: LexiconEntry;
  /** The preview job. */
  job: JobRecord;
  /** The lexicon file written, when saved. */
  savedTo?: string;
}

async function askSay(text: string, previous: string | undefined): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: `Add Pronunciation: ${text}`,
    prompt: 'How to say it: a respelling ("koh ah"), or "phonemes:" and espeak-ng phonemes ("phonemes: dZIf").',
    value: previous ?? '',
    validateInput: (value) => (value.trim() ? entryProblem(entryFromInput(text, value)) : 'Type how to say it.'),
  });
}

/**
 * Save / Try Again / Cancel as a quick pick that stays open until answered (a toast hid itself while the
 * preview played); undefined (Cancel) when dismissed with Escape.
 */
async function askChoice(
  text: string,
  say: string,
  skipped: string | undefined,
): Promise<PronunciationChoice | undefined> {
  const items: Array<vscode.QuickPickItem & { choice: PronunciationChoice }> = [
    { label: '$(check) Save', description: 'in the workspace lexicon, .speech/lexicon.json', choice: 'Save' },
    { label: '$(edit) Try Again', description: 'type another respelling', choice: 'Try Again' },
    { label: '$(close) Cancel', description: 'save nothing', choice: 'Cancel' },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: `Add Pronunciation: "${text}" said as "${say}"`,
    placeHolder: skipped
      ? `This voice did not use it: ${skipped}. Save it anyway?`
      : 'Listen to the preview, then save it or try another respelling',
    ignoreFocusOut: true,
  });
  return picked?.choice;
}

export async function addPronunciation(
  services: Services,
  args: AddPronunciationArgs = {},
): Promise<AddPronunciationResult | undefined> {
  const editor = vscode.window.activeTextEditor;
  const text = (args.text ?? (editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : ''))
    .trim()
    .replace(/\s+/g, ' ');
  if (!text) {
    void vscode.window.showInformationMessage('Select a word or phrase to add a pronunciation for it.');
    return undefined;
  }
  const file = workspaceLexiconFile();
  if (!file) {
    void vscode.window.showInformationMessage(
      'Open a folder first: the pronunciation is saved in its .speech/lexicon.json.',
    );
    return undefined;
  }
  let typed = args.say ?? (await askSay(text, undefined));
  while (typed !== undefined) {
    const entry = entryFromInput(text, typed);
    const problem = entryProblem(entry);
    if (problem) throw new Error(`The pronunciation of "${text}" is not valid: ${problem}`);
    const job = await runWithProgress(services.controller, `Pronouncing "${text}"`, () =>
      services.editorJobs.createTts({ text, lexicon: [entry] }),
    );
    if (!succeeded(job)) return { entry, job };
    if (args.play !== false)
      services.player.play((await services.editorJobs.outputPath(job))!, `${text} (${typed.trim()})`);
    // A voice that takes no phonemes leaves an entry without `say` unspoken: say so before it is saved.
    const skipped = ttsResultOf(job)?.lexicon?.skipped[0]?.reason;
    const choice = args.choice ?? (await askChoice(text, typed.trim(), skipped));
    if (choice === 'Save') {
      await writeWorkspaceLexicon(file, await withEntry(file, entry));
      services.log.info(`Pronunciation of "${text}" saved in ${file}.`);
      void vscode.window.showInformationMessage(
        `Saved: "${text}" is said "${typed.trim()}" in this workspace (.speech/lexicon.json).`,
      );
      return { entry, job, savedTo: file };
    }
    if (choice !== 'Try Again' || args.choice !== undefined) return { entry, job };
    typed = await askSay(text, typed);
  }
  return undefined;
}

export function registerAddPronunciation(services: Services): vscode.Disposable {
  return vscode.commands.registerCommand('speechStudio.addPronunciation', async (first?: unknown) => {
    const args =
      typeof first === 'object' && first !== null && !(first instanceof vscode.Uri)
        ? (first as AddPronunciationArgs)
        : undefined;
    try {
      return await addPronunciation(services, args);
    } catch (error) {
      reportError(services.log, 'Add Pronunciation failed', error);
      return undefined;
    }
  });
}
