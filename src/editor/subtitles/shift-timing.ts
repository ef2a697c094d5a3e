/**
 * "Speech Studio: Shift Subtitle Timing…": moves all cues of the active .srt/.vtt, or those from the
 * cursor's cue on, by a typed number of seconds or so that the cursor's cue starts at the player's playhead,
 * as one undoable edit.
 */
import * as vscode from 'vscode';
import { formatTimestamp } from '../../subtitles/timestamps';
import { cueAtLine, shiftTiming, SubtitleEditError } from '../../subtitles/edits';
import { scanSubtitles, type SubtitleFormat } from '../../subtitles/scan';
import type { AudioPlayer } from '../audio-player';
import { mediaForSubtitle } from './cue-media';
import { subtitleFormatOf } from './diagnostics';
import { toWorkspaceEdit } from './quick-fixes';

export const SHIFT_TIMING_COMMAND = 'speechStudio.shiftSubtitleTiming';

/** "1.5", "+2", "-0.250", "-1,5" (a comma as the decimal mark), optionally with an "s". */
export function parseOffset(text: string): number | undefined {
  const match = /^\s*([+-]?\d+(?:[.,]\d*)?|[+-]?[.,]\d+)\s*s?\s*$/i.exec(text);
  return match ? Number(match[1].replace(',', '.')) : undefined;
}

const clock = (seconds: number): string => formatTimestamp(seconds, '.');

/**
 * The offset that makes cue `index` start at the player's playhead, when the player has this file's media
 * (cue-media.ts) loaded; undefined when it has not.
 */
async function playheadOffset(
  context: vscode.ExtensionContext,
  player: AudioPlayer,
  document: vscode.TextDocument,
  format: SubtitleFormat,
  index: number | undefined,
): Promise<{ offset: number; playhead: number } | undefined> {
  if (index === undefined) return undefined;
  const media = await mediaForSubtitle(context, document.uri, false);
  const playhead = media && player.positionIn(media.fsPath);
  const cue = scanSubtitles(document.getText(), format).cues[index - 1];
  if (playhead === undefined || !cue) return undefined;
  return { offset: Math.round((playhead - cue.start) * 1000) / 1000, playhead };
}

/** By a typed offset, or (when the player has this file's media) so that the cursor's cue starts at the playhead. */
async function chooseOffset(
  context: vscode.ExtensionContext,
  player: AudioPlayer,
  document: vscode.TextDocument,
  format: SubtitleFormat,
  cursorCue: number | undefined,
): Promise<number | undefined> {
  const toPlayhead = await playheadOffset(context, player, document, format, cursorCue);
  if (toPlayhead) {
    const choices = [
      { label: 'By a number of seconds…', playhead: false },
      {
        label: `Make cue ${cursorCue} start at the playhead (${clock(toPlayhead.playhead)})`,
        description: `a shift of ${toPlayhead.offset} s`,
        playhead: true,
      },
    ];
    const choice = await vscode.window.showQuickPick(choices, { title: 'Shift Subtitle Timing' });
    if (!choice) return undefined;
    if (choice.playhead) return toPlayhead.offset;
  }
  const typed = await vscode.window.showInputBox({
    title: 'Shift Subtitle Timing',
    prompt: 'Seconds to move the cues by: positive later, negative earlier',
    placeHolder: 'e.g. 1.5 or -0.25',
    validateInput: (text) =>
      parseOffset(text) === undefined ? 'Type a number of seconds, such as 1.5 or -0.25' : undefined,
  });
  return typed === undefined ? undefined : parseOffset(typed);
}

async function shiftTimingCommand(context: vscode.ExtensionContext, player: AudioPlayer): Promise<boolean> {
  const editor = vscode.window.activeTextEditor;
  const format = editor && subtitleFormatOf(editor.document);
  if (!editor || !format) {
    void vscode.window.showWarningMessage(
      'Open a subtitle file (.srt, .vtt, .ass, .ssa, .ttml, .dfxp or .sbv) to shift its timing.',
    );
    return false;
  }
  const document = editor.document;
  const cursorCue = cueAtLine(document.getText(), format, editor.selection.active.line + 1);
  const offset = await chooseOffset(context, player, document, format, cursorCue);
  if (offset === undefined || offset === 0) return false;
  const choices: (vscode.QuickPickItem & { from: number })[] = [{ label: 'All cues', from: 1 }];
  if (cursorCue !== undefined && cursorCue > 1)
    choices.push({
      label: `From cue ${cursorCue} on`,
      description: 'the cue at the cursor and those after it',
      from: cursorCue,
    });
  const choice =
    choices.length === 1 ? choices[0] : await vscode.window.showQuickPick(choices, { title: `Shift by ${offset} s` });
  if (!choice) return false;
  try {
    return await vscode.workspace.applyEdit(
      toWorkspaceEdit(document, shiftTiming(document.getText(), format, offset, choice.from)),
    );
  } catch (error) {
    if (!(error instanceof SubtitleEditError)) throw error;
    void vscode.window.showErrorMessage(`Cannot shift the timing: ${error.message}.`);
    return false;
  }
}

export function registerShiftSubtitleTiming(context: vscode.ExtensionContext, player: AudioPlayer): vscode.Disposable {
  return vscode.commands.registerCommand(SHIFT_TIMING_COMMAND, () => shiftTimingCommand(context, player));
}
