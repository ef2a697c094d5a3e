/**
 * "Speech Studio: Show Subtitle Timeline": the Timeline view of the Speech Studio panel (below the editor,
 * beside the player, so the document keeps its place) with the media's waveform (peaks from the engine), a
 * video's shot changes as vertical marks (which also turns on the shot-change check of the file), the cues
 * of the .srt/.vtt file as blocks and the player's playhead, under a time ruler. Clicking a block reveals the
 * cue in the editor and plays it; the block of the cue at the editor's cursor is highlighted and follows it.
 * Editing: dragging a block's edge or the block itself retimes the cue, and the header's buttons set the
 * current cue's start or end at the playhead or split the cue under it — each one document edit
 * (timeline-edits.ts), so one undo takes it back.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import * as vscode from 'vscode';
import { cueAtLine } from '../../subtitles/edits';
import { cueWords } from '../../subtitles/cue-text';
import { subtitleFormatOfPath } from '../../subtitles/scan';
import { PanelView } from '../panel-view';
import type { Services } from '../services';
import { mediaForSubtitle } from './cue-media';
import { cuesOf, type CuePlayback, type CuePlayer } from './cue-play';
import { subtitleFormatOf } from './diagnostics';
import { toWorkspaceEdit } from './quick-fixes';
import { readSubtitleCheckSetting } from './style-setting';
import { editsForTimeline, parseTimelineEdit } from './timeline-edits';
import { rememberShots } from './shot-change-diagnostics';
import { shotChangesOfMedia } from './shot-changes';
import { timelinePeaks } from './timeline-peaks';

export const SHOW_TIMELINE_COMMAND = 'speechStudio.showSubtitleTimeline';

/** What the webview says it drew. */
export interface TimelineRendered {
  blocks: number;
  /** Shot-change marks drawn (none for audio). */
  shots: number;
  buckets: number;
  /** The tallest peak drawn, as a fraction of the waveform's half-height: 1 for any recording with sound, however quiet. */
  tallest: number;
  waveform: 'loading' | 'ready' | 'failed';
  /** The highlighted cue (the one at the editor's cursor). */
  current: number | null;
  /** The zoom: how wide a second is drawn. */
  pixelsPerSecond: number;
}

/** The open timeline, as the command returns it (for scripts and tests). */
export interface Timeline {
  readonly subtitle: vscode.Uri;
  readonly media: vscode.Uri;
  /** The next render with the waveform drawn (or failed to load). */
  rendered(): Promise<TimelineRendered>;
  /** How many shot-change marks the webview drew, once it drew some (waits for the first). */
  shotsShown(): Promise<number>;
  /** The next time the webview highlights a cue (the cursor moved to another). */
  highlighted(): Promise<number | null>;
  /** Fires when a click on a block played its cue. */
  readonly onDidPlay: vscode.Event<CuePlayback>;
  /** The next edit the page asked for: applied to the document, or refused with the reason. */
  edited(): Promise<{ applied: boolean; message?: string }>;
  /** Moves the timeline's playhead to `seconds` (as the player does while it plays, or a click on the ruler). */
  movePlayhead(seconds: number): Promise<void>;
}

// Typing bursts redraw once they pause.
const DEBOUNCE_MS = 150;

interface PageMessage {
  type: 'ready' | 'rendered' | 'select' | 'highlighted' | 'playhead-moved';
  index?: number | null;
  blocks?: number;
  shots?: number;
  buckets?: number;
  tallest?: number;
  waveform?: TimelineRendered['waveform'];
  current?: number | null;
  pixelsPerSecond?: number;
  position?: number;
}

class TimelinePanel implements Timeline, vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly messages = new vscode.EventEmitter<PageMessage>();
  private readonly played = new vscode.EventEmitter<CuePlayback>();
  readonly onDidPlay = this.played.event;
  private readonly edits = new vscode.EventEmitter<{ applied: boolean; message?: string }>();
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private shotsDrawn = 0;

  /** Whether the page in the view said it is ready. */
  private pageReady = false;
  private currentPanel!: vscode.WebviewView;

  constructor(
    panel: vscode.WebviewView,
    private readonly view: PanelView,
    readonly subtitle: vscode.Uri,
    readonly media: vscode.Uri,
    private readonly services: Services,
    private readonly cuePlayer: CuePlayer,
  ) {
    this.disposables.push(
      this.messages,
      this.played,
      this.edits,
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document.uri.toString() !== subtitle.toString()) return;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.sendCues(), DEBOUNCE_MS);
      }),
      vscode.window.onDidChangeTextEditorSelection((event) => {
        if (event.textEditor.document.uri.toString() === subtitle.toString()) this.sendCursor(event.textEditor);
      }),
      services.player.onDidMove(({ file, position }) => {
        if (file === media.fsPath) void this.panel.webview.postMessage({ type: 'playhead', position, follow: true });
      }),
    );
    this.attach(panel);
  }

  /** The view the timeline is drawn in. */
  get panel(): vscode.WebviewView {
    return this.currentPanel;
  }

  get isReady(): boolean {
    return this.pageReady;
  }

  /** Draws the timeline in `panel`: the first view, or a new one made because the last stayed blank. */
  attach(panel: vscode.WebviewView): void {
    this.currentPanel = panel;
    this.pageReady = false;
    const webview = panel.webview;
    this.disposables.push(
      webview.onDidReceiveMessage((message: PageMessage) => {
        if (this.panel === panel) this.onMessage(message);
      }),
    );
    const root = vscode.Uri.joinPath(this.services.context.extensionUri, 'media', 'timeline');
    webview.options = { enableScripts: true, localResourceRoots: [root] };
    webview.html = page(
      webview,
      root,
      `${path.posix.basename(this.subtitle.path)} — ${path.posix.basename(this.media.path)}`,
    );
  }

  rendered(): Promise<TimelineRendered> {
    return this.next((m) => m.type === 'rendered' && m.waveform !== 'loading').then((m) => ({
      blocks: m.blocks ?? 0,
      shots: m.shots ?? 0,
      buckets: m.buckets ?? 0,
      tallest: m.tallest ?? 0,
      waveform: m.waveform ?? 'loading',
      current: m.current ?? null,
      pixelsPerSecond: m.pixelsPerSecond ?? 0,
    }));
  }

  shotsShown(): Promise<number> {
    if (this.shotsDrawn > 0) return Promise.resolve(this.shotsDrawn);
    return this.next((m) => m.type === 'rendered' && (m.shots ?? 0) > 0).then((m) => m.shots ?? 0);
  }

  highlighted(): Promise<number | null> {
    return this.next((m) => m.type === 'highlighted').then((m) => m.index ?? null);
  }

  edited(): Promise<{ applied: boolean; message?: string }> {
    return new Promise((resolve) => {
      const listener = this.edits.event((outcome) => {
        listener.dispose();
        resolve(outcome);
      });
    });
  }

  async movePlayhead(seconds: number): Promise<void> {
    const moved = this.next((m) => m.type === 'playhead-moved' && m.position === seconds);
    await this.panel.webview.postMessage({ type: 'playhead', position: seconds, follow: true });
    await moved;
  }

  /** Makes the edit the page asked for, as one WorkspaceEdit; a refusal is said in a warning. */
  private async edit(raw: unknown): Promise<void> {
    const request = parseTimelineEdit(raw);
    if (!request) return;
    const document = await vscode.workspace.openTextDocument(this.subtitle);
    const format = subtitleFormatOf(document);
    if (!format) return;
    const edits = editsForTimeline(document.getText(), format, readSubtitleCheckSetting(document.uri).style, request);
    if (typeof edits === 'string') {
      void vscode.window.showWarningMessage(edits);
      await this.sendCues(); // the dragged block goes back where the document has it
      this.edits.fire({ applied: false, message: edits });
      return;
    }
    const applied = edits.length > 0 && (await vscode.workspace.applyEdit(toWorkspaceEdit(document, edits)));
    if (!applied) await this.sendCues();
    this.edits.fire({ applied });
  }

  private next(matches: (message: PageMessage) => boolean): Promise<PageMessage> {
    return new Promise((resolve) => {
      const listener = this.messages.event((message) => {
        if (!matches(message)) return;
        listener.dispose();
        resolve(message);
      });
    });
  }

  private onMessage(message: PageMessage): void {
    if (typeof message !== 'object' || message === null) return;
    if (message.type === 'rendered' && typeof message.shots === 'number') this.shotsDrawn = message.shots;
    if (message.type === 'ready') {
      this.pageReady = true;
      void this.sendCues().then(() => {
        const editor = vscode.window.visibleTextEditors.find(
          (e) => e.document.uri.toString() === this.subtitle.toString(),
        );
        if (editor) this.sendCursor(editor);
        const position = this.services.player.positionIn(this.media.fsPath);
        if (position !== undefined) void this.panel.webview.postMessage({ type: 'playhead', position });
      });
      void this.sendWaveform().then(() => this.sendShots());
    } else if (message.type === 'select' && typeof message.index === 'number') {
      void this.select(message.index);
    } else if ((message.type as string) === 'retime' || (message.type as string) === 'at-playhead') {
      void this.edit(message);
    }
    this.messages.fire(message);
  }

  /** Reveals cue `index` in the editor, with the cursor on its text, and plays it. */
  private async select(index: number): Promise<void> {
    const document = await vscode.workspace.openTextDocument(this.subtitle);
    const cue = cuesOf(document).find((c) => c.index === index);
    if (!cue) return;
    const line = (cue.lineNumbers[0] ?? cue.line) - 1;
    const visible = vscode.window.visibleTextEditors.find((e) => e.document === document);
    const editor = await vscode.window.showTextDocument(document, {
      viewColumn: visible?.viewColumn,
      preserveFocus: false,
    });
    editor.selection = new vscode.Selection(line, 0, line, 0);
    editor.revealRange(
      new vscode.Range(cue.line - 1, 0, line, 0),
      vscode.TextEditorRevealType.InCenterIfOutsideViewport,
    );
    const playback = await this.cuePlayer.play(this.subtitle, index);
    if (!this.panel.visible) void this.view.show();
    if (playback) this.played.fire(playback);
  }

  private async sendCues(): Promise<void> {
    const document = await vscode.workspace.openTextDocument(this.subtitle);
    const cues = cuesOf(document).map((cue) => ({
      index: cue.index,
      start: cue.start,
      end: cue.end,
      text: cueWords(cue.lines).text,
    }));
    await this.panel.webview.postMessage({ type: 'cues', cues });
  }

  private sendCursor(editor: vscode.TextEditor): void {
    const format = subtitleFormatOf(editor.document);
    if (!format) return;
    const index = cueAtLine(editor.document.getText(), format, editor.selection.active.line + 1) ?? null;
    void this.panel.webview.postMessage({ type: 'cursor', index });
  }

  private async sendWaveform(): Promise<void> {
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
      const message = error instanceof Error ? error.message : String(error);
      this.services.log.warn(`The timeline has no waveform for ${this.media.fsPath}: ${message}`);
      await this.panel.webview.postMessage({ type: 'waveform-error', message: `No waveform: ${message}` });
    }
  }

  /** The video's shot changes as marks; audio has none, and says nothing. */
  private async sendShots(): Promise<void> {
    try {
      const found = await shotChangesOfMedia(this.services, this.subtitle, this.media, this.abort.signal);
      if (!found) return;
      rememberShots(this.subtitle, found);
      await this.panel.webview.postMessage({ type: 'shots', times: found.changes });
    } catch (error) {
      if (this.abort.signal.aborted) return;
      this.services.log.info(
        `The timeline shows no shot changes for ${this.media.fsPath}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.abort.abort();
    for (const d of this.disposables) d.dispose();
  }
}

function page(webview: vscode.Webview, root: vscode.Uri, title: string): string {
  const nonce = randomBytes(16).toString('base64');
  const asset = (name: string): string => webview.asWebviewUri(vscode.Uri.joinPath(root, name)).toString();
  const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; script-src 'nonce-${nonce}';">
<link rel="stylesheet" href="${asset('timeline.css')}">
<title>${escape(title)}</title></head>
<body>
<header><h2>${escape(title)}</h2><span id="status">Loading the waveform…</span>
<button id="set-start" title="Start the current cue at the playhead ([)">[ Start at Playhead</button><button id="set-end" title="End the current cue at the playhead (])">End at Playhead ]</button><button id="split" title="Split the cue under the playhead (S)">Split at Playhead</button>
<button id="zoom-out" title="Zoom out (−)">−</button><button id="zoom-in" title="Zoom in (+)">+</button></header>
<div id="scroller"><div id="track"><canvas id="wave"></canvas><div id="ruler"></div><div id="playhead"></div></div></div>
<script nonce="${nonce}" src="${asset('timeline.js')}"></script>
</body></html>`;
}

export function registerSubtitleTimeline(services: Services, cuePlayer: CuePlayer): vscode.Disposable {
  let open: TimelinePanel | undefined;

  async function show(target?: vscode.Uri | string): Promise<Timeline | undefined> {
    const uri =
      typeof target === 'string' ? vscode.Uri.parse(target) : (target ?? vscode.window.activeTextEditor?.document.uri);
    if (!uri || !subtitleFormatOfPath(uri.path)) {
      void vscode.window.showWarningMessage(
        'Open a subtitle file (.srt, .vtt, .ass, .ssa, .ttml, .dfxp or .sbv) to see its timeline.',
      );
      return undefined;
    }
    const media = await mediaForSubtitle(services.context, uri);
    if (!media) return undefined;
    open?.dispose();
    open = undefined;
    let timeline: TimelinePanel | undefined;
    await view.showPage(
      `The timeline of ${path.posix.basename(uri.path)}`,
      (panel) => {
        panel.title = `Timeline: ${path.posix.basename(uri.path)}`;
        if (timeline) timeline.attach(panel);
        else timeline = new TimelinePanel(panel, view, uri, media, services, cuePlayer);
      },
      () => !timeline || timeline !== open || timeline.isReady,
    );
    open = timeline;
    return open;
  }

  const view = new PanelView(
    'speechStudio.timeline',
    'speechStudio.timelineShown',
    'speechStudio.timeline.close',
    services.log,
  );
  view.onDidClose(() => {
    open?.dispose();
    open = undefined;
  });

  return vscode.Disposable.from(
    vscode.commands.registerCommand(SHOW_TIMELINE_COMMAND, show),
    { dispose: () => open?.dispose() },
    view,
  );
}
