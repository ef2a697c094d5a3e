/**
 * The cue grid: a custom editor (opened with "Open Cue Grid", beside the text editor that stays the
 * default) showing each cue of a subtitle file as a row — number, start, end, duration, reading speed, text
 * and the checker's problems — editable in place, beside a preview of its media: the video with the current
 * cue drawn over the picture, or the waveform of an audio file. Every edit is a WorkspaceEdit of the
 * document, so undo, save and git diff are the text editor's own. Selecting a row reveals the cue in the
 * text editor and seeks the preview; the text editor's cursor and the player's playhead move the preview.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import * as vscode from 'vscode';
import { cueAtLine } from '../../subtitles/edits';
import { subtitleFormatOfPath } from '../../subtitles/scan';
import type { Services } from '../services';
import { editsForCell, gridRows, parseGridMessage, type GridMessage, type GridRow } from './cue-grid-protocol';
import { mediaForSubtitle } from './cue-media';
import { cuesOf } from './cue-play';
import { toWorkspaceEdit } from './quick-fixes';
import { timelinePeaks } from './timeline-peaks';

export const CUE_GRID_VIEW_TYPE = 'speechStudio.cueGrid';
export const OPEN_CUE_GRID_COMMAND = 'speechStudio.openCueGrid';

const VIDEO_EXTENSIONS = new Set(['mp4', 'm4v', 'mov', 'webm', 'mkv']);
// Typing bursts in the text editor redraw the grid once they pause.
const DEBOUNCE_MS = 150;

/** What the preview showed at a time: the cue (null between cues) and the text drawn over the picture. */
export interface PreviewShown {
  time: number;
  cue: number | null;
  text: string;
}

/** An open cue grid, as the command returns it (for scripts and tests). */
export interface CueGrid {
  readonly subtitle: vscode.Uri;
  readonly media: vscode.Uri | undefined;
  /** The rows as last sent to the page. */
  rows(): GridRow[];
  /** The next time the page has drawn its rows (after an edit, an undo, a change of problems). */
  rendered(): Promise<{ rows: number; media: 'video' | 'audio' | 'none' }>;
  /** Moves the preview to `seconds` and resolves with what it then shows. */
  showAt(seconds: number): Promise<PreviewShown>;
  /** Resolves with the next message the extension gave the page about an edit it refused. */
  refused(): Promise<string>;
}

const mediaKind = (media: vscode.Uri | undefined): 'video' | 'audio' | 'none' =>
  !media ? 'none' : VIDEO_EXTENSIONS.has(path.posix.extname(media.path).slice(1).toLowerCase()) ? 'video' : 'audio';

class GridSession implements CueGrid, vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly messages = new vscode.EventEmitter<GridMessage | { type: 'refused'; message: string }>();
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private lastRows: GridRow[] = [];
  private requests = 0;
  media: vscode.Uri | undefined;

  constructor(
    private readonly document: vscode.TextDocument,
    private readonly panel: vscode.WebviewPanel,
    private readonly services: Services,
  ) {
    const webview = panel.webview;
    this.disposables.push(
      this.messages,
      webview.onDidReceiveMessage((raw: unknown) => this.onMessage(raw)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document === document) this.later();
      }),
      vscode.languages.onDidChangeDiagnostics((event) => {
        if (event.uris.some((uri) => uri.toString() === document.uri.toString())) this.later();
      }),
      vscode.window.onDidChangeTextEditorSelection((event) => {
        if (event.textEditor.document === document) this.sendCursor(event.textEditor);
      }),
      services.player.onDidMove(({ file, position }) => {
        if (this.media && file === this.media.fsPath) void webview.postMessage({ type: 'playhead', position });
      }),
    );
  }

  get subtitle(): vscode.Uri {
    return this.document.uri;
  }

  async start(): Promise<void> {
    this.media = await mediaForSubtitle(this.services.context, this.document.uri, false);
    this.load();
  }

  private load(): void {
    const webview = this.panel.webview;
    const root = vscode.Uri.joinPath(this.services.context.extensionUri, 'media', 'cue-grid');
    const roots = [root, ...(this.media ? [vscode.Uri.joinPath(this.media, '..')] : [])];
    webview.options = { enableScripts: true, localResourceRoots: roots };
    webview.html = page(webview, root, this.document.uri, this.media);
  }

  rows(): GridRow[] {
    return this.lastRows;
  }

  rendered(): Promise<{ rows: number; media: 'video' | 'audio' | 'none' }> {
    return this.next((m): m is Extract<GridMessage, { type: 'rendered' }> => m.type === 'rendered').then((m) => ({
      rows: m.rows,
      media: m.media,
    }));
  }

  showAt(seconds: number): Promise<PreviewShown> {
    const request = ++this.requests;
    const shown = this.next(
      (m): m is Extract<GridMessage, { type: 'shown' }> => m.type === 'shown' && m.request === request,
    );
    void this.panel.webview.postMessage({ type: 'show-at', time: seconds, request });
    return shown.then((m) => ({ time: m.time, cue: m.cue, text: m.text }));
  }

  refused(): Promise<string> {
    return this.next((m): m is { type: 'refused'; message: string } => m.type === 'refused').then((m) => m.message);
  }

  private next<T extends GridMessage | { type: 'refused'; message: string }>(
    matches: (message: GridMessage | { type: 'refused'; message: string }) => message is T,
  ): Promise<T> {
    return new Promise((resolve) => {
      const listener = this.messages.event((message) => {
        if (!matches(message)) return;
        listener.dispose();
        resolve(message);
      });
    });
  }

  private later(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.sendRows(), DEBOUNCE_MS);
  }

  private onMessage(raw: unknown): void {
    const message = parseGridMessage(raw);
    if (!message) return;
    if (message.type === 'pick-media') void this.pickMedia();
    else if (message.type === 'ready') {
      void this.sendRows().then(() => {
        const editor = vscode.window.visibleTextEditors.find((e) => e.document === this.document);
        if (editor) this.sendCursor(editor);
      });
      if (mediaKind(this.media) === 'audio') void this.sendWaveform();
    } else if (message.type === 'edit') {
      void this.edit(message);
    } else if (message.type === 'select') {
      void this.reveal(message.index);
    }
    this.messages.fire(message);
  }

  private async pickMedia(): Promise<void> {
    const media = await mediaForSubtitle(this.services.context, this.document.uri, true);
    if (!media) return;
    this.media = media;
    this.load();
  }

  private async sendRows(): Promise<void> {
    const format = subtitleFormatOfPath(this.document.uri.path);
    if (!format) return;
    const problems = vscode.languages
      .getDiagnostics(this.document.uri)
      .map((d) => ({ line: d.range.start.line + 1, message: d.message }));
    this.lastRows = gridRows(this.document.getText(), format, problems);
    await this.panel.webview.postMessage({ type: 'rows', rows: this.lastRows });
  }

  private async edit(cell: Extract<GridMessage, { type: 'edit' }>): Promise<void> {
    const format = subtitleFormatOfPath(this.document.uri.path);
    if (!format) return;
    const edits = editsForCell(this.document.getText(), format, cell);
    if (typeof edits === 'string') {
      this.messages.fire({ type: 'refused', message: edits });
      void vscode.window.showWarningMessage(edits);
      await this.sendRows(); // the cell shows the document's value again
      return;
    }
    if (edits.length === 0) return;
    await vscode.workspace.applyEdit(toWorkspaceEdit(this.document, edits));
  }

  /** Shows cue `index` in the text editor beside the grid, the cursor on its text, the grid keeping focus. */
  private async reveal(index: number): Promise<void> {
    const cue = cuesOf(this.document).find((c) => c.index === index);
    if (!cue) return;
    const line = (cue.lineNumbers[0] ?? cue.line) - 1;
    const visible = vscode.window.visibleTextEditors.find((e) => e.document === this.document);
    const editor = await vscode.window.showTextDocument(this.document, {
      viewColumn: visible?.viewColumn ?? vscode.ViewColumn.Beside,
      preserveFocus: true,
    });
    editor.selection = new vscode.Selection(line, 0, line, 0);
    editor.revealRange(
      new vscode.Range(cue.line - 1, 0, line, 0),
      vscode.TextEditorRevealType.InCenterIfOutsideViewport,
    );
  }

  private sendCursor(editor: vscode.TextEditor): void {
    const format = subtitleFormatOfPath(this.document.uri.path);
    if (!format) return;
    const index = cueAtLine(this.document.getText(), format, editor.selection.active.line + 1) ?? null;
    void this.panel.webview.postMessage({ type: 'cursor', index });
  }

  private async sendWaveform(): Promise<void> {
    if (!this.media) return;
    try {
      const server = await this.services.controller.ready();
      const peaks = await timelinePeaks(
        server.engine,
        this.services.controller.dataDir,
        this.media.fsPath,
        this.abort.signal,
      );
      await this.panel.webview.postMessage({
        type: 'waveform',
        bucketsPerSecond: peaks.bucketsPerSecond,
        duration: peaks.durationSeconds,
        peaks: peaks.peaks,
      });
    } catch (error) {
      if (this.abort.signal.aborted) return;
      this.services.log.warn(
        `The cue grid has no waveform for ${this.media.fsPath}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.abort.abort();
    for (const d of this.disposables) d.dispose();
  }
}

function page(webview: vscode.Webview, root: vscode.Uri, subtitle: vscode.Uri, media: vscode.Uri | undefined): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (name: string): string => webview.asWebviewUri(vscode.Uri.joinPath(root, name)).toString();
  const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const kind = mediaKind(media);
  const source = media ? webview.asWebviewUri(media).toString() : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; script-src 'nonce-${nonce}'; media-src ${webview.cspSource};">
<link rel="stylesheet" href="${asset('grid.css')}">
<title>Cue Grid: ${escape(path.posix.basename(subtitle.path))}</title></head>
<body data-media-kind="${kind}" data-media-src="${escape(source)}" data-media-name="${escape(media ? path.posix.basename(media.path) : '')}">
<main>
<section id="grid-pane"><table id="grid"><thead><tr>
<th class="number">#</th><th class="start">Start</th><th class="end">End</th><th class="duration" title="Duration in seconds">Dur.</th><th class="cps" title="Characters per second">CPS</th><th class="text">Text</th><th class="problems">Problems</th>
</tr></thead><tbody></tbody></table></section>
<section id="preview-pane">
<div id="screen"><video id="video" preload="auto"></video><canvas id="wave"></canvas><div id="overlay"></div></div>
<div id="transport"><button id="play" title="Play the selected cue">▶ Cue</button><button id="pause" title="Pause">❚❚</button><span id="clock">0:00.000</span><span id="media-name"></span><button id="pick-media" title="Choose the media file of these subtitles">Choose Media…</button></div>
</section>
</main>
<script nonce="${nonce}" src="${asset('grid-logic.js')}"></script>
<script nonce="${nonce}" src="${asset('grid.js')}"></script>
</body></html>`;
}

/** The cue grid's editor and its command ("Open Cue Grid" in the editor title of a subtitle file). */
export function registerCueGrid(services: Services): vscode.Disposable {
  const sessions = new Map<string, GridSession>();
  const waiting = new Map<string, ((grid: GridSession) => void)[]>();

  const provider: vscode.CustomTextEditorProvider = {
    async resolveCustomTextEditor(document, panel) {
      const session = new GridSession(document, panel, services);
      const key = document.uri.toString();
      sessions.set(key, session);
      panel.onDidDispose(() => {
        session.dispose();
        if (sessions.get(key) === session) sessions.delete(key);
      });
      await session.start();
      waiting.get(key)?.forEach((resolve) => resolve(session));
      waiting.delete(key);
    },
  };

  async function open(target?: vscode.Uri | string): Promise<CueGrid | undefined> {
    const uri =
      typeof target === 'string' ? vscode.Uri.parse(target) : (target ?? vscode.window.activeTextEditor?.document.uri);
    if (!uri || !subtitleFormatOfPath(uri.path)) {
      void vscode.window.showWarningMessage(
        'Open a subtitle file (.srt, .vtt, .ass, .ssa, .ttml, .dfxp or .sbv) to see its cue grid.',
      );
      return undefined;
    }
    const key = uri.toString();
    const opened = sessions.get(key)
      ? Promise.resolve(sessions.get(key)!)
      : new Promise<GridSession>((resolve) => waiting.set(key, [...(waiting.get(key) ?? []), resolve]));
    await vscode.commands.executeCommand('vscode.openWith', uri, CUE_GRID_VIEW_TYPE, {
      viewColumn: vscode.ViewColumn.Active,
    });
    return opened;
  }

  return vscode.Disposable.from(
    vscode.window.registerCustomEditorProvider(CUE_GRID_VIEW_TYPE, provider, {
      webviewOptions: { retainContextWhenHidden: true },
    }),
    vscode.commands.registerCommand(OPEN_CUE_GRID_COMMAND, open),
    { dispose: () => sessions.forEach((session) => session.dispose()) },
  );
}
