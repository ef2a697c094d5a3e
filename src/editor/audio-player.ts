/**
 * Plays audio where the editor can: a webview with an <audio> element, the Player view of the Speech Studio
 * panel (not an editor tab: the document stays where it is). One page, reused for each narration, and for
 * each cue of a subtitle file (a span of its media). The page reports what it plays and
 * where it is, so the editor can highlight the cue playing, draw a playhead and shift timing to it. (In a
 * remote or web window the audio streams from the extension host's disk.)
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../util/log';
import { PanelView } from './panel-view';

export type PlayerState = 'playing' | 'paused' | 'ended' | 'error';

/** What the player says it played. */
export interface PlayerReport {
  /** Absolute path of the file playing. */
  file: string;
  state: PlayerState;
  /** Seconds: where the span started playing (the whole file: 0), where it stops (null: at the file's end). */
  start: number;
  end: number | null;
  /** Seconds: the playhead when the report was made. */
  position: number;
  error?: string;
}

interface PageMessage {
  type: 'ready' | 'report' | 'position' | 'retry';
  id?: number;
  attempt?: number;
  state?: PlayerState;
  start?: number;
  end?: number | null;
  position?: number;
  error?: string;
}

export class AudioPlayer implements vscode.Disposable {
  static readonly viewType = 'speechStudio.player';
  private readonly view: PanelView;
  /** The page of the view, while the view exists and a file is loaded in it. */
  private panel: vscode.WebviewView | undefined;
  private file: string | undefined;
  private pageReady = false;
  private requests = 0;
  private currentRequest = 0;
  private loads = 0;
  /** The span playing or about to, until its last report: whoever waits on it hears when it is cut short. */
  private openSpan: { request: number; file: string; start: number; end: number } | undefined;
  private playhead: { file: string; position: number } | undefined;
  private readonly reported = new vscode.EventEmitter<PlayerReport & { request: number }>();
  private readonly moved = new vscode.EventEmitter<{ file: string; position: number }>();
  /** Each change of state, for the span or file playing. */
  readonly onDidReport = this.reported.event;
  /** The playhead as it moves (a few times a second while playing). */
  readonly onDidMove = this.moved.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log?: Logger,
  ) {
    this.view = new PanelView(AudioPlayer.viewType, 'speechStudio.playerShown', 'speechStudio.player.close', log);
    this.view.onDidClose(() => {
      this.interrupt();
      this.panel = undefined;
      this.file = undefined;
      this.playhead = undefined;
    });
  }

  /** Shows the player for `file` (an absolute path) and starts playing. */
  play(file: string, title: string): void {
    this.load(file, title, undefined);
  }

  /**
   * Plays `start`–`end` seconds of `file` and stops there. Resolves with the player's first report on it:
   * `playing` (with where it really started), `error`, or `paused` when something else played first.
   */
  playSpan(
    file: string,
    title: string,
    start: number,
    end: number,
  ): { request: number; started: Promise<PlayerReport> } {
    const request = ++this.requests;
    const started = this.reportOf(request, () => true);
    const span = { id: request, start, end, title };
    this.interrupt();
    this.openSpan = { request, file, start, end };
    if (this.panel && this.file === file && this.pageReady) {
      this.currentRequest = request;
      void this.panel.webview.postMessage({ type: 'play', ...span });
    } else {
      this.load(file, title, span);
    }
    return { request, started };
  }

  /** The first report on `request` that `matches`. */
  reportOf(request: number, matches: (report: PlayerReport) => boolean): Promise<PlayerReport> {
    return new Promise((resolve) => {
      const listener = this.reported.event((report) => {
        if (report.request !== request || !matches(report)) return;
        listener.dispose();
        const { request: _request, ...plain } = report;
        resolve(plain);
      });
    });
  }

  /** Where the player is in `file`, if it has that file loaded. */
  positionIn(file: string): number | undefined {
    return this.playhead && this.panel && this.playhead.file === file ? this.playhead.position : undefined;
  }

  /** The file the player has loaded, while it is open. */
  get currentFile(): string | undefined {
    return this.panel ? this.file : undefined;
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  dispose(): void {
    this.view.dispose();
    this.reported.dispose();
    this.moved.dispose();
  }

  private load(
    file: string,
    title: string,
    span: { id: number; start: number; end: number; title: string } | undefined,
  ): void {
    this.file = file;
    this.pageReady = false;
    if (!span) this.interrupt();
    this.currentRequest = span?.id ?? 0;
    this.playhead = { file, position: span?.start ?? 0 };
    const loading = ++this.loads;
    const superseded = (): boolean => loading !== this.loads;
    void this.view
      .showPage(
        `The player's page for ${file}`,
        (view) => {
          // A later file asked for while the view was being made: that one loads.
          if (!superseded()) this.loadPage(view, file, title, span);
        },
        () => superseded() || this.pageReady,
      )
      .then(undefined, (error: unknown) => {
        if (span)
          this.reported.fire({
            request: span.id,
            file,
            state: 'error',
            start: span.start,
            end: span.end,
            position: span.start,
            error: `the player could not open: ${String(error)}`,
          });
      });
  }

  private loadPage(
    view: vscode.WebviewView,
    file: string,
    title: string,
    span: { id: number; start: number; end: number; title: string } | undefined,
  ): void {
    if (this.panel !== view)
      view.webview.onDidReceiveMessage((message: PageMessage) => {
        if (this.panel === view) this.onMessage(message);
      });
    this.panel = view;
    this.pageReady = false;
    const roots = [vscode.Uri.file(path.dirname(file)), vscode.Uri.joinPath(this.extensionUri, 'media', 'player')];
    const webview = view.webview;
    webview.options = { enableScripts: true, localResourceRoots: roots };
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'player', 'player.js'));
    webview.html = page(
      webview.cspSource,
      webview.asWebviewUri(vscode.Uri.file(file)).toString(),
      script.toString(),
      title,
      span,
    );
    view.description = title;
  }

  /** The open span stops short (another one or another file plays, or the player closed): it reports `paused`. */
  private interrupt(): void {
    const span = this.openSpan;
    if (!span) return;
    this.openSpan = undefined;
    const position = this.playhead?.file === span.file ? this.playhead.position : span.start;
    this.reported.fire({
      request: span.request,
      file: span.file,
      state: 'paused',
      start: span.start,
      end: span.end,
      position,
    });
  }

  private onMessage(message: PageMessage): void {
    const file = this.file;
    if (!file || typeof message !== 'object' || message === null) return;
    if (message.type === 'ready') {
      this.pageReady = true;
      return;
    }
    if (message.type === 'retry') {
      this.log?.info(
        `The player is loading ${file} again (try ${message.attempt ?? '?'}): ${message.error ?? 'media error'}`,
      );
      return;
    }
    if (message.type === 'report' && message.state === 'error')
      this.log?.warn(`The player could not play ${file}: ${message.error ?? 'media error'}`);
    const position = typeof message.position === 'number' && Number.isFinite(message.position) ? message.position : 0;
    this.playhead = { file, position };
    this.moved.fire({ file, position });
    if (message.type !== 'report' || !message.state) return;
    // A report on a span asked for before the last one is stale.
    if ((message.id ?? 0) !== 0 && message.id !== this.currentRequest) return;
    if (message.state !== 'playing' && this.openSpan?.request === message.id) this.openSpan = undefined;
    this.reported.fire({
      request: message.id ?? 0,
      file,
      state: message.state,
      start: message.start ?? 0,
      end: message.end ?? null,
      position,
      ...(message.error ? { error: message.error } : {}),
    });
  }
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(cspSource: string, source: string, script: string, title: string, span: object | undefined): string {
  const nonce = randomBytes(16).toString('base64');
  const spanAttribute = span ? ` data-span="${escapeHtml(JSON.stringify(span))}"` : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; media-src ${cspSource}; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}';">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">
  body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0.5em 1em; }
  h2 { font-weight: 500; font-size: 1.05em; margin: 0 0 0.6em; }
  audio { width: 100%; max-width: 40em; }
</style></head>
<body data-view="player"${spanAttribute}><h2>${escapeHtml(title)}</h2><audio controls${span ? '' : ' autoplay'} src="${escapeHtml(source)}"></audio>
<script nonce="${nonce}" src="${escapeHtml(script)}"></script></body></html>`;
}
