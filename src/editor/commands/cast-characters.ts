/**
 * Cast Characters…: the language model names the speaker of each quote in the open manuscript (src/jobs/
 * cast-book.ts, in the engine) into `.speech/cast.json`; each quote then shows its speaker as an inline hint.
 * Clicking a hint (or Correct Speaker) picks another speaker, kept in the cast file as a correction that
 * casting again never changes. Export Audiobook reads the cast's voices (`--cast auto` on the command line).
 */
import path from 'node:path';
import * as vscode from 'vscode';
import { NARRATOR } from '../../cast/attribution-prompt';
import { castFilePath, correctLine, readCastFile, writeCastFile, type CastFile } from '../../cast/cast-file';
import { quoteKey, splitQuotes } from '../../cast/quotes';
import { castBook, manuscriptFolder, type CastOutcome } from '../../jobs/cast-book';
import { reportError } from '../log';
import type { Services } from '../services';

export interface CastCharactersArgs {
  /** The manuscript; the active editor's file when absent. */
  input?: string;
  model?: string;
}

export interface CorrectSpeakerArgs {
  /** The manuscript the quote is in, and the quote's text. */
  file: string;
  quote: string;
  /** The speaker; picked from the cast (or typed) when absent. */
  speaker?: string;
}

const MANUSCRIPT = /\.(md|markdown|txt)$/i;

/** Where each quote of a document's text is, with its cast key. */
function quotesIn(text: string): Array<{ key: string; end: number }> {
  const found: Array<{ key: string; end: number }> = [];
  const pattern = /\S[\s\S]*?(?=\n\s*\n|$)/g;
  for (const match of text.matchAll(pattern)) {
    let from = match.index ?? 0;
    for (const piece of splitQuotes(match[0])) {
      const at = text.indexOf(piece.text, from);
      if (at < 0) continue;
      from = at + piece.text.length;
      if (piece.kind === 'quote') found.push({ key: quoteKey(piece.text), end: from });
    }
  }
  return found;
}

class CastHints implements vscode.InlayHintsProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeInlayHints = this.changed.event;

  refresh(): void {
    this.changed.fire();
  }

  async provideInlayHints(document: vscode.TextDocument, range: vscode.Range): Promise<vscode.InlayHint[]> {
    if (document.uri.scheme !== 'file') return [];
    let cast: CastFile;
    try {
      cast = await readCastFile(castFilePath(await manuscriptFolder(document.uri.fsPath)));
    } catch {
      return []; // a broken cast file shows no hints; casting again names what is wrong
    }
    if (Object.keys(cast.lines).length === 0) return [];
    const hints: vscode.InlayHint[] = [];
    for (const quote of quotesIn(document.getText())) {
      const line = cast.lines[quote.key];
      const position = document.positionAt(quote.end + 1);
      if (!line || !range.contains(position)) continue;
      const label = new vscode.InlayHintLabelPart(` ${line.speaker}${line.corrected ? ' ✓' : ''}`);
      label.tooltip = 'Who says this (Cast Characters). Click to correct.';
      label.command = {
        title: 'Correct Speaker',
        command: 'speechStudio.correctCastSpeaker',
        arguments: [{ file: document.uri.fsPath, quote: quote.key }],
      };
      const hint = new vscode.InlayHint(position, [label], vscode.InlayHintKind.Parameter);
      hint.paddingLeft = true;
      hints.push(hint);
    }
    return hints;
  }
}

export async function castCharacters(
  services: Services,
  hints: CastHints,
  args: CastCharactersArgs = {},
): Promise<CastOutcome | undefined> {
  const input = args.input ?? vscode.window.activeTextEditor?.document.uri.fsPath;
  if (!input || !MANUSCRIPT.test(input)) {
    void vscode.window.showInformationMessage('Open a Markdown or text manuscript to cast its characters.');
    return undefined;
  }
  const server = await services.controller.ready();
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Casting ${path.basename(input)}`, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const cancelling = token.onCancellationRequested(() => controller.abort());
      let shown = 0;
      try {
        return await castBook(
          { engine: server.engine, voices: services.voices, dataDir: services.controller.dataDir },
          { input, ...(args.model ? { model: args.model } : {}) },
          controller.signal,
          (done) => {
            progress.report({ increment: Math.max(0, done - shown) });
            shown = Math.max(shown, done);
          },
        );
      } finally {
        cancelling.dispose();
      }
    },
  );
  hints.refresh();
  const characters = Object.keys(outcome.cast.characters);
  services.log.info(
    `Cast ${outcome.quotes} quoted line(s) of ${input} into ${outcome.file}: ${characters.join(', ') || 'the narrator only'}.`,
  );
  void vscode.window
    .showInformationMessage(
      `Cast ${outcome.quotes} quoted line(s): ${characters.length} character(s). Edit .speech/cast.json to change their voices.`,
      'Open Cast',
    )
    .then((choice) => {
      if (choice) void vscode.window.showTextDocument(vscode.Uri.file(outcome.file));
    });
  return outcome;
}

export async function correctSpeaker(hints: CastHints, args: CorrectSpeakerArgs): Promise<CastFile | undefined> {
  const file = castFilePath(await manuscriptFolder(args.file));
  const cast = await readCastFile(file);
  let speaker = args.speaker;
  if (!speaker) {
    const current = cast.lines[args.quote]?.speaker;
    const names = [...new Set([...Object.keys(cast.characters), NARRATOR])];
    const picked = await vscode.window.showQuickPick(
      [
        ...names.map((name) => ({ label: name, description: name === current ? 'now' : undefined })),
        { label: 'Someone else…', description: 'type a name' },
      ],
      { title: `Who says “${args.quote.slice(0, 60)}”?` },
    );
    if (!picked) return undefined;
    speaker =
      picked.label === 'Someone else…'
        ? (await vscode.window.showInputBox({ prompt: "The character's name" }))?.trim()
        : picked.label;
  }
  if (!speaker) return undefined;
  const corrected = correctLine(cast, args.quote, speaker);
  await writeCastFile(file, corrected);
  hints.refresh();
  return corrected;
}

export function registerCastCharacters(services: Services): vscode.Disposable {
  const hints = new CastHints();
  return vscode.Disposable.from(
    vscode.languages.registerInlayHintsProvider(
      [
        { language: 'markdown', scheme: 'file' },
        { language: 'plaintext', scheme: 'file' },
      ],
      hints,
    ),
    vscode.workspace.onDidSaveTextDocument(
      (document) => path.basename(document.uri.fsPath) === 'cast.json' && hints.refresh(),
    ),
    vscode.commands.registerCommand('speechStudio.castCharacters', async (args?: CastCharactersArgs | vscode.Uri) => {
      try {
        return await castCharacters(
          services,
          hints,
          args instanceof vscode.Uri ? { input: args.fsPath } : (args ?? {}),
        );
      } catch (error) {
        reportError(services.log, 'Casting the characters failed', error);
        return undefined;
      }
    }),
    vscode.commands.registerCommand('speechStudio.correctCastSpeaker', async (args: CorrectSpeakerArgs) => {
      try {
        return await correctSpeaker(hints, args);
      } catch (error) {
        reportError(services.log, 'Correcting the speaker failed', error);
        return undefined;
      }
    }),
  );
}
