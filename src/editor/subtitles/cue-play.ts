/**
 * "▶ Play" on each cue of a subtitle file (a CodeLens above its timing, and a link in the timing's hover):
 * plays exactly that cue's span of the media the file belongs to (cue-media.ts) in the player webview, with
 * the cue's lines highlighted in the editor while it plays.
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { formatTimestamp } from '../../subtitles/timestamps';
import { scanSubtitles, type ScannedCue } from '../../subtitles/scan';
import { cueAtLine } from '../../subtitles/edits';
import type { AudioPlayer, PlayerReport } from '../audio-player';
import { SUBTITLE_SELECTOR, subtitleFormatOf } from './diagnostics';
import { mediaForSubtitle } from './cue-media';

export const PLAY_CUE_COMMAND = 'speechStudio.playCue';

/** What "▶ Play" started: the player's first report on the cue, and its report once the span has played. */
export interface CuePlayback {
  cue: number;
  /** Absolute path of the media. */
  media: string;
  report: PlayerReport;
  ended: Promise<PlayerReport>;
  /** The lines highlighted while it plays (from 0). */
  lines: { first: number; last: number };
}

/** The cues of a subtitle document as the checker reads them (file order, index from 1). */
export function cuesOf(document: vscode.TextDocument): ScannedCue[] {
  const format = subtitleFormatOf(document);
  return format ? scanSubtitles(document.getText(), format).cues : [];
}

const clock = (seconds: number): string => formatTimestamp(seconds, '.');

class PlayLenses implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    return cuesOf(document).map(
      (cue) =>
        new vscode.CodeLens(document.lineAt(cue.line - 1).range, {
          title: '▶ Play',
          tooltip: `Play cue ${cue.index} (${clock(cue.start)}–${clock(cue.end)}) from its media`,
          command: PLAY_CUE_COMMAND,
          arguments: [document.uri, cue.index],
        }),
    );
  }

  dispose(): void {
    this.changed.dispose();
  }
}

class PlayHover implements vscode.HoverProvider {
  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const cue = cuesOf(document).find((c) => c.line - 1 === position.line);
    if (!cue) return undefined;
    const args = encodeURIComponent(JSON.stringify([document.uri.toString(), cue.index]));
    const markdown = new vscode.MarkdownString(
      `[▶ Play cue ${cue.index}](command:${PLAY_CUE_COMMAND}?${args}) — ${clock(cue.start)} to ${clock(cue.end)}`,
    );
    markdown.isTrusted = { enabledCommands: [PLAY_CUE_COMMAND] };
    return new vscode.Hover(markdown, document.lineAt(position.line).range);
  }
}

/** Highlights the lines of the cue that plays, in every editor showing its file, until it stops. */
class PlayingHighlight implements vscode.Disposable {
  private readonly decoration = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.rangeHighlightForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Full,
  });
  private playing: { uri: string; range: vscode.Range; id: number } | undefined;
  private shown = 0;

  /** Highlights `range`; returns what `clear` takes to remove this highlight (and not a later one). */
  show(uri: vscode.Uri, range: vscode.Range): number {
    this.playing = { uri: uri.toString(), range, id: ++this.shown };
    this.apply();
    return this.shown;
  }

  clear(id: number): void {
    if (this.playing?.id !== id) return;
    this.playing = undefined;
    this.apply();
  }

  /** The highlighted range in `uri`, if a cue of it plays (for the tests). */
  rangeIn(uri: vscode.Uri): vscode.Range | undefined {
    return this.playing?.uri === uri.toString() ? this.playing.range : undefined;
  }

  apply(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      const mine = this.playing && editor.document.uri.toString() === this.playing.uri;
      editor.setDecorations(this.decoration, mine ? [this.playing!.range] : []);
    }
  }

  dispose(): void {
    this.decoration.dispose();
  }
}

export interface CuePlayer extends vscode.Disposable {
  /** Plays cue `index` (from 1) of the subtitle file `uri` (default: the active editor's cue at the cursor). */
  play(uri?: vscode.Uri | string, index?: number): Promise<CuePlayback | undefined>;
  highlighted(uri: vscode.Uri): vscode.Range | undefined;
}

export function registerCuePlayer(context: vscode.ExtensionContext, player: AudioPlayer): CuePlayer {
  const highlight = new PlayingHighlight();
  const lenses = new PlayLenses();
  const selector = SUBTITLE_SELECTOR;

  async function play(target?: vscode.Uri | string, index?: number): Promise<CuePlayback | undefined> {
    const editor = vscode.window.activeTextEditor;
    const uri = typeof target === 'string' ? vscode.Uri.parse(target) : (target ?? editor?.document.uri);
    const document = uri && (await vscode.workspace.openTextDocument(uri));
    const format = document && subtitleFormatOf(document);
    if (!document || !format) {
      void vscode.window.showWarningMessage(
        'Open a subtitle file (.srt, .vtt, .ass, .ssa, .ttml, .dfxp or .sbv) to play its cues.',
      );
      return undefined;
    }
    const cueIndex =
      index ??
      (editor?.document === document
        ? cueAtLine(document.getText(), format, editor.selection.active.line + 1)
        : undefined);
    const cue = cuesOf(document).find((c) => c.index === cueIndex);
    if (!cue) {
      void vscode.window.showWarningMessage('Put the cursor in a cue to play it.');
      return undefined;
    }
    const media = await mediaForSubtitle(context, document.uri);
    if (!media) return undefined;
    const first =
      cue.line - 1 - (!cue.spans && cue.line > 1 && /^\S+$/.test(document.lineAt(cue.line - 2).text) ? 1 : 0);
    const last = Math.max(cue.line - 1, ...cue.lineNumbers.map((line) => line - 1));
    const shown = highlight.show(document.uri, new vscode.Range(first, 0, last, document.lineAt(last).text.length));
    const { request, started } = player.playSpan(
      media.fsPath,
      `Cue ${cue.index} of ${path.posix.basename(document.uri.path)}`,
      cue.start,
      cue.end,
    );
    const report = await started;
    if (report.state !== 'playing') {
      highlight.clear(shown);
      if (report.state === 'error')
        void vscode.window.showErrorMessage(
          `The player cannot play ${path.basename(media.fsPath)}: ${report.error ?? 'unknown error'}.`,
        );
      return { cue: cue.index, media: media.fsPath, report, ended: Promise.resolve(report), lines: { first, last } };
    }
    const ended = player.reportOf(request, (r) => r.state !== 'playing');
    void ended.then(() => highlight.clear(shown));
    return { cue: cue.index, media: media.fsPath, report, ended, lines: { first, last } };
  }

  const disposable = vscode.Disposable.from(
    highlight,
    lenses,
    vscode.languages.registerCodeLensProvider(selector, lenses),
    vscode.languages.registerHoverProvider(selector, new PlayHover()),
    vscode.commands.registerCommand(PLAY_CUE_COMMAND, play),
    vscode.window.onDidChangeVisibleTextEditors(() => highlight.apply()),
  );
  return {
    play,
    highlighted: (uri) => highlight.rangeIn(uri),
    dispose: () => {
      disposable.dispose();
    },
  };
}
