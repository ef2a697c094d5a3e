/**
 * "Name This Speaker…" on a transcript's speaker label (SRT `[Speaker 2]`, WebVTT `<v Speaker 2>`, a JSON
 * transcript's `"speaker": "Speaker 2"`): enrolls the voice of that speaker's segments, cut from the media beside
 * the file in the engine, under a name (refused when taken, too short or without speech), then puts the name in
 * place of the label throughout the file. Offered as a code action on a line that holds a label.
 */
import * as vscode from 'vscode';
import { enrollSpeaker, EnrollmentError } from '../../jobs/speaker-enrollment';
import { parseSubtitles } from '../../subtitles/parse';
import { speakerNameProblem } from '../../voices/known-speakers';
import type { Services } from '../services';
import { mediaBeside } from './cue-media';

export const NAME_SPEAKER_COMMAND = 'speechStudio.nameThisSpeaker';
/** The most of a speaker's segments the voice is computed from (seconds), as the engine's matching does. */
const VOICE_SECONDS = 30;

export interface NameSpeakerOptions {
  /** The name, without asking. */
  name?: string;
  /** The media the transcript is of, when it is not beside the file under the same name. */
  media?: vscode.Uri;
}

export interface NameSpeakerResult {
  name?: string;
  /** How many labels were replaced in the file. */
  replaced?: number;
  /** Why nothing was enrolled. */
  error?: string;
}

const LABEL_PATTERNS = [/\[([^\]\n]{1,64})\]/, /<v(?:\.[^\s>]*)?\s+([^>]{1,64})>/, /"speaker"\s*:\s*"([^"\n]{1,64})"/];

/** The speaker label on a line, if it holds one. */
export function labelOnLine(line: string): string | undefined {
  for (const pattern of LABEL_PATTERNS) {
    const found = pattern.exec(line);
    if (found) return found[1].trim();
  }
  return undefined;
}

/** Each stretch (seconds) the transcript gives to `label`. */
function stretchesOf(document: vscode.TextDocument, label: string): Array<{ start: number; end: number }> {
  const text = document.getText();
  if (/\.json$/i.test(document.uri.path)) {
    const parsed = JSON.parse(text) as { segments?: Array<{ start: number; end: number; speaker?: string }> };
    return (parsed.segments ?? []).filter((s) => s.speaker === label).map(({ start, end }) => ({ start, end }));
  }
  const format = /\.vtt$/i.test(document.uri.path) ? 'vtt' : 'srt';
  return parseSubtitles(text, format)
    .filter((cue) => cue.speaker === label)
    .map(({ start, end }) => ({ start, end }));
}

/** The name in place of the label, in every way the file's format writes it (in JSON: speakers, segments and words only). */
function relabel(text: string, label: string, name: string, json: boolean): { text: string; count: number } {
  let count = 0;
  if (json) {
    type Speaking = { speaker?: string };
    const parsed = JSON.parse(text) as {
      speakers?: string[] | null;
      segments?: Array<Speaking & { words?: Speaking[] }>;
    };
    const rename = (item: Speaking): void => {
      if (item.speaker === label) {
        item.speaker = name;
        count += 1;
      }
    };
    if (Array.isArray(parsed.speakers))
      parsed.speakers = parsed.speakers.map((speaker) => (speaker === label ? name : speaker));
    for (const segment of parsed.segments ?? []) {
      rename(segment);
      (segment.words ?? []).forEach(rename);
    }
    return {
      text: `${JSON.stringify(parsed, null, text.includes('\n  ') ? 2 : undefined)}${text.endsWith('\n') ? '\n' : ''}`,
      count,
    };
  }
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const replaced = text
    .replace(new RegExp(`\\[${escaped}\\]`, 'g'), () => ((count += 1), `[${name}]`))
    .replace(
      new RegExp(`<v(\\.[^\\s>]*)?\\s+${escaped}>`, 'g'),
      (_m, classes: string | undefined) => ((count += 1), `<v${classes ?? ''} ${name}>`),
    );
  return { text: replaced, count };
}

export async function nameThisSpeaker(
  services: Services,
  uri?: vscode.Uri,
  label?: string,
  options: NameSpeakerOptions = {},
): Promise<NameSpeakerResult> {
  const editor = vscode.window.activeTextEditor;
  const document = uri ? await vscode.workspace.openTextDocument(uri) : editor?.document;
  if (!document) return fail('Open a transcript (SRT, VTT or JSON) first.');
  const speaker =
    label ??
    (editor?.document === document ? labelOnLine(document.lineAt(editor.selection.active.line).text) : undefined);
  if (!speaker) return fail('Put the cursor on a line with a speaker label, such as [Speaker 2] or <v Speaker 2>.');
  let stretches: Array<{ start: number; end: number }>;
  try {
    stretches = stretchesOf(document, speaker);
  } catch (error) {
    return fail(`The transcript could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (stretches.length === 0)
    return fail(`No segment of ${document.uri.path.split('/').pop()} is labelled ${JSON.stringify(speaker)}.`);
  const media =
    options.media ??
    (await mediaBeside(document.uri)) ??
    (await vscode.window.showOpenDialog({ title: `The media of ${speaker}'s voice`, canSelectMany: false }))?.[0];
  if (!media) return fail('Name This Speaker needs the media the transcript is of.');
  const name =
    options.name ??
    (await vscode.window.showInputBox({
      title: `Name ${speaker}`,
      prompt: 'Transcripts will name this voice wherever it speaks.',
      validateInput: (value) => speakerNameProblem(value.trim()),
    }));
  if (name === undefined) return {};
  const problem = speakerNameProblem(name);
  if (problem) return fail(`${JSON.stringify(name)}: ${problem}.`);

  // Up to VOICE_SECONDS of the speaker's segments, longest first: the clearest voice.
  const voice: Array<{ start: number; end: number }> = [];
  let total = 0;
  for (const stretch of [...stretches].sort((a, b) => b.end - b.start - (a.end - a.start))) {
    if (total >= VOICE_SECONDS) break;
    voice.push(stretch);
    total += stretch.end - stretch.start;
  }
  voice.sort((a, b) => a.start - b.start);
  try {
    const server = await services.controller.ready();
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Enrolling ${name}'s voice…`, cancellable: true },
      (_progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort(new Error('Cancelled.')));
        return enrollSpeaker(server.engine, services.controller.dataDir, name, media.fsPath, controller.signal, voice);
      },
    );
  } catch (error) {
    return fail(error instanceof EnrollmentError || error instanceof Error ? error.message : String(error));
  }
  const { text, count } = relabel(document.getText(), speaker, name, /\.json$/i.test(document.uri.path));
  const edit = new vscode.WorkspaceEdit();
  edit.replace(
    document.uri,
    new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)),
    text,
  );
  await vscode.workspace.applyEdit(edit);
  await document.save();
  void vscode.window.showInformationMessage(
    `${name} is enrolled: transcripts will name this voice. ${count} label${count === 1 ? '' : 's'} renamed here.`,
  );
  return { name, replaced: count };
}

function fail(message: string): NameSpeakerResult {
  void vscode.window.showErrorMessage(message);
  return { error: message };
}

/** The command, and a code action on every line with a speaker label in SRT, WebVTT and JSON transcripts. */
export function registerNameSpeaker(services: Services): vscode.Disposable {
  const actions: vscode.CodeActionProvider = {
    provideCodeActions(document, range) {
      const label = labelOnLine(document.lineAt(range.start.line).text);
      // Offered on the labels diarization gives; a name already given stays.
      if (!label || !/^(Speaker \d+|[A-Z])$/.test(label)) return [];
      const action = new vscode.CodeAction(`Name This Speaker (${label})…`, vscode.CodeActionKind.RefactorRewrite);
      action.command = { command: NAME_SPEAKER_COMMAND, title: 'Name This Speaker…', arguments: [document.uri, label] };
      return [action];
    },
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand(
      NAME_SPEAKER_COMMAND,
      (uri?: vscode.Uri, label?: string, options?: NameSpeakerOptions) =>
        nameThisSpeaker(
          services,
          uri instanceof vscode.Uri ? uri : undefined,
          typeof label === 'string' ? label : undefined,
          options ?? {},
        ),
    ),
    vscode.languages.registerCodeActionsProvider(
      [{ pattern: '**/*.{srt,vtt,SRT,VTT}' }, { pattern: '**/*.json' }],
      actions,
      { providedCodeActionKinds: [vscode.CodeActionKind.RefactorRewrite] },
    ),
  );
}
