/**
 * The Problems an audiobook export with verified takes leaves: one warning per paragraph whose best take is
 * still over the threshold, on the paragraph in the manuscript when it is one Markdown or text file that
 * holds the paragraph's text, else on the paragraph's line of the takes report beside the book; a quick fix
 * "▶ Play the kept take" plays it. A new export of the same book replaces them.
 */
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { ParagraphTakes, VerifySummary } from '../../audiobook/book-plan';
import { paragraphPlace, percent } from '../../audiobook/takes-lines';
import { readWavInfo } from '../../audio/wav-reader';
import type { AudioPlayer, PlayerReport } from '../audio-player';

export const TAKES_SOURCE = 'Speech Studio verified takes';
export const PLAY_TAKE_COMMAND = 'speechStudio.audiobook.playTake';

/** The warning of a paragraph still over the threshold. */
export function describeStillBad(paragraph: ParagraphTakes): string {
  const kept = paragraph.takes[paragraph.kept - 1];
  const heard = kept?.heard ? ` Heard: "${kept.heard.slice(0, 100)}"` : '';
  return `${paragraphPlace(paragraph)} still reads wrong after ${paragraph.takes.length} takes: WER ${percent(kept?.wer ?? 1)} in the best.${heard}`;
}

/** Where a paragraph is in `text`: its first line found as written, else undefined. */
function findParagraph(text: string, paragraph: string): { start: number; end: number } | undefined {
  const firstLine = paragraph.split('\n')[0].trim();
  if (firstLine === '') return undefined;
  const start = text.indexOf(firstLine);
  return start < 0 ? undefined : { start, end: start + firstLine.length };
}

export class TakeProblems implements vscode.CodeActionProvider, vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('speechStudio.verifiedTakes');
  /** The audio of each diagnostic shown, by its message (unique: it names chapter and paragraph). */
  private readonly audio = new Map<string, ParagraphTakes>();
  /** The files each book's Problems are on, by the book, so a new export replaces them. */
  private readonly shownFor = new Map<string, vscode.Uri[]>();
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly player: AudioPlayer) {
    this.disposables = [
      this.collection,
      vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, this, {
        providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
      }),
      vscode.commands.registerCommand(PLAY_TAKE_COMMAND, (paragraph: ParagraphTakes) => this.play(paragraph)),
    ];
  }

  /** Replaces the book's take problems with its still-bad paragraphs; answers the diagnostics by file. */
  async show(input: string, out: string, summary: VerifySummary): Promise<Map<string, vscode.Diagnostic[]>> {
    for (const uri of this.shownFor.get(out) ?? []) this.collection.delete(uri);
    const manuscript = /\.(md|markdown|txt)$/i.test(input)
      ? await readFile(input, 'utf8').catch(() => undefined)
      : undefined;
    const report = await readFile(summary.textFile, 'utf8').catch(() => '');
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const paragraph of summary.stillBad) {
      const inManuscript = manuscript === undefined ? undefined : findParagraph(manuscript, paragraph.text);
      const file = inManuscript ? input : summary.textFile;
      const found = inManuscript ?? findParagraph(report, `${paragraphPlace(paragraph)}:`) ?? { start: 0, end: 0 };
      const text = inManuscript ? manuscript! : report;
      const range = new vscode.Range(positionAt(text, found.start), positionAt(text, found.end));
      const diagnostic = new vscode.Diagnostic(range, describeStillBad(paragraph), vscode.DiagnosticSeverity.Warning);
      diagnostic.source = TAKES_SOURCE;
      this.audio.set(diagnostic.message, paragraph);
      byFile.set(file, [...(byFile.get(file) ?? []), diagnostic]);
    }
    const uris = [...byFile.keys()].map((file) => vscode.Uri.file(file));
    for (const uri of uris) this.collection.set(uri, byFile.get(uri.fsPath) ?? []);
    this.shownFor.set(out, uris);
    return byFile;
  }

  provideCodeActions(
    _document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    return context.diagnostics.flatMap((diagnostic) => {
      const paragraph = diagnostic.source === TAKES_SOURCE ? this.audio.get(diagnostic.message) : undefined;
      if (!paragraph) return [];
      const play = new vscode.CodeAction(
        `▶ Play the kept take (take ${paragraph.kept})`,
        vscode.CodeActionKind.QuickFix,
      );
      play.command = { title: '▶ Play the kept take', command: PLAY_TAKE_COMMAND, arguments: [paragraph] };
      play.diagnostics = [diagnostic];
      return [play];
    });
  }

  /** Plays a paragraph's kept take, whole. */
  async play(paragraph: ParagraphTakes): Promise<PlayerReport | undefined> {
    const head = await readFile(paragraph.audio).catch(() => undefined);
    if (!head) {
      void vscode.window.showInformationMessage('That take is no longer in the cache: export the book again.');
      return undefined;
    }
    const info = readWavInfo(head);
    const { started } = this.player.playSpan(
      paragraph.audio,
      `${paragraphPlace(paragraph)}, take ${paragraph.kept}`,
      0,
      info.frames / info.sampleRate,
    );
    return started;
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
    this.audio.clear();
  }
}

/** The position of character `offset` of `text`. */
function positionAt(text: string, offset: number): vscode.Position {
  const before = text.slice(0, offset).split('\n');
  return new vscode.Position(before.length - 1, before[before.length - 1].length);
}
