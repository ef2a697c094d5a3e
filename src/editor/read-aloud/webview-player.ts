/**
 * Read Aloud's player: a webview view in the Speech Studio panel (the bottom panel, not an editor tab) that
 * schedules each sentence's samples back to back with Web Audio (a sentence queued while another plays
 * starts after it and the pause, without a gap) and reports when each starts, where it is, and when it
 * ends, by the audio clock.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { PlayerReports } from '../../read-aloud/clock-player';
import type { SentenceAudio, SentencePlayer } from '../../read-aloud/reading-session';
import type { Logger } from '../../util/log';
import { PanelView } from '../panel-view';

type ToPlayer =
  | { type: 'enqueue'; index: number; sampleRate: number; pcm: string; pauseSeconds: number }
  | { type: 'drop'; from: number }
  | { type: 'pause' | 'resume' | 'stop' }
  | { type: 'title'; text: string };

type FromPlayer =
  /** `page`: which page is ready (each reading loads a new one; a late word from the last one is not this one's). */
  | { type: 'ready'; page: string }
  | { type: 'started' | 'ended'; index: number }
  | { type: 'time'; index: number; seconds: number }
  | { type: 'command'; name: string }
  | { type: 'error'; message: string };

export class WebviewPlayer implements SentencePlayer, vscode.Disposable {
  static readonly viewType = 'speechStudio.readAloud';
  private readonly panelView: PanelView;
  /** The view holding the page, once a reading showed it. */
  private view: vscode.WebviewView | undefined;
  /** Whether a reading asked for the player: messages wait for its page until it is ready. */
  private wanted = false;
  private ready = false;
  /** The page loaded last, which alone may say it is ready. */
  private pageId = '';
  private opens = 0;
  private pending: ToPlayer[] = [];
  private reports: PlayerReports | undefined;

  constructor(
    private readonly handlers: {
      onCommand(name: string): void;
      onClosed(): void;
      onError(message: string): void;
      onReady(): void;
    },
    log?: Logger,
  ) {
    // The view appears in the Speech Studio panel with the first reading; its Close action stops the reading.
    this.panelView = new PanelView(
      WebviewPlayer.viewType,
      'speechStudio.readAloudShown',
      'speechStudio.readAloud.close',
      log,
    );
    this.panelView.onDidClose(() => {
      this.view = undefined;
      this.ready = false;
      this.pending = [];
      if (this.wanted) this.handlers.onClosed();
      this.wanted = false;
    });
  }

  /** Reports go to `reports` from now on (the session being read). */
  connect(reports: PlayerReports | undefined): void {
    this.reports = reports;
  }

  /**
   * Shows the player in the Speech Studio panel, keeping the focus in the editor, with `title`. Each reading
   * starts on a new page (a new audio context): one kept while the panel was closed or showed other views may
   * have had its audio suspended.
   */
  open(title: string): void {
    this.wanted = true;
    this.ready = false;
    this.pending = [];
    this.post({ type: 'title', text: title });
    const opening = ++this.opens;
    const superseded = (): boolean => opening !== this.opens || !this.wanted;
    const made = this.view === undefined;
    void this.panelView
      .showPage(
        'The Read Aloud page',
        (view) => {
          if (!superseded()) this.loadPage(view);
        },
        () => superseded() || this.ready,
      )
      // A view made now took the focus; it goes back to the text being read.
      .then(() => made && vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup'))
      .then(undefined, (error: unknown) =>
        this.handlers.onError(`showing the Read Aloud view failed: ${String(error)}`),
      );
  }

  private loadPage(view: vscode.WebviewView): void {
    if (this.view !== view) {
      view.webview.onDidReceiveMessage((message: FromPlayer) => {
        if (this.view === view) this.receive(message);
      });
    }
    this.view = view;
    this.ready = false;
    this.pageId = randomUUID();
    view.webview.options = { enableScripts: true, localResourceRoots: [] };
    view.webview.html = page(view.webview.cspSource, this.pageId);
  }

  get isOpen(): boolean {
    return this.view !== undefined;
  }

  enqueue(index: number, audio: SentenceAudio, pauseSeconds: number): void {
    this.post({ type: 'enqueue', index, sampleRate: audio.sampleRate, pcm: audio.pcm, pauseSeconds });
  }

  drop(fromIndex: number): void {
    this.post({ type: 'drop', from: fromIndex });
  }

  pause(): void {
    this.post({ type: 'pause' });
  }

  resume(): void {
    this.post({ type: 'resume' });
  }

  stop(): void {
    this.post({ type: 'stop' });
  }

  private post(message: ToPlayer): void {
    if (!this.view || !this.ready) {
      if (this.wanted) this.pending.push(message);
      return;
    }
    void this.view.webview.postMessage(message);
  }

  private receive(message: FromPlayer): void {
    switch (message.type) {
      case 'ready':
        if (message.page !== this.pageId) return;
        this.ready = true;
        for (const queued of this.pending.splice(0)) void this.view?.webview.postMessage(queued);
        this.handlers.onReady();
        return;
      case 'started':
        this.reports?.onPlayerStarted(message.index);
        return;
      case 'time':
        this.reports?.onPlayerTime(message.index, message.seconds);
        return;
      case 'ended':
        this.reports?.onPlayerEnded(message.index);
        return;
      case 'command':
        this.handlers.onCommand(message.name);
        return;
      case 'error':
        this.handlers.onError(message.message);
        return;
    }
  }

  dispose(): void {
    this.wanted = false;
    this.panelView.dispose();
  }
}

function page(cspSource: string, pageId: string): string {
  const nonce = randomBytes(16).toString('base64');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline'; script-src 'nonce-${nonce}';">
<title>Read Aloud</title>
<style>
  body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: .5em 1em; }
  h2 { font-weight: 500; font-size: 1.1em; margin: 0 0 .8em; }
  button { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); border: none; padding: .3em .7em; margin-right: .3em; cursor: pointer; }
  #status { margin-top: .8em; opacity: .8; }
</style></head>
<body>
<h2 id="title">Read Aloud</h2>
<div>
  <button data-command="previous" title="Previous sentence">Previous</button>
  <button data-command="togglePause" title="Pause or resume">Pause/Resume</button>
  <button data-command="next" title="Next sentence">Next</button>
  <button data-command="stop" title="Stop">Stop</button>
  <button data-command="slower" title="Slower (from the next sentence)">Slower</button>
  <button data-command="faster" title="Faster (from the next sentence)">Faster</button>
</div>
<div id="status"></div>
<script nonce="${nonce}">
const PAGE = ${JSON.stringify(pageId)};
${PLAYER_SCRIPT}
</script></body></html>`;
}

/** Runs in the webview: decodes the PCM, schedules it on one AudioContext, and reports by its clock. */
const PLAYER_SCRIPT = String.raw`
const vscode = acquireVsCodeApi();
let context;
let items = [];
let paused = false;
const status = document.getElementById('status');
const audio = () => (context ??= new AudioContext({ latencyHint: 'interactive' }));
// Made at once: the audio device opens while the engine speaks the first sentence.
audio();
for (const button of document.querySelectorAll('button')) {
  button.addEventListener('click', () => vscode.postMessage({ type: 'command', name: button.dataset.command }));
}
function decode(message) {
  const bytes = Uint8Array.from(atob(message.pcm), (c) => c.charCodeAt(0));
  const samples = new Int16Array(bytes.buffer, 0, bytes.length >> 1);
  const buffer = audio().createBuffer(1, Math.max(1, samples.length), message.sampleRate);
  const channel = buffer.getChannelData(0);
  for (let i = 0; i < samples.length; i++) channel[i] = samples[i] / 32768;
  return buffer;
}
function enqueue(message) {
  const ctx = audio();
  if (!paused && ctx.state === 'suspended') void ctx.resume();
  const buffer = decode(message);
  const now = ctx.currentTime + 0.03;
  const last = items.at(-1);
  const startAt = last && last.endAt > now ? last.endAt + message.pauseSeconds : now;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  source.connect(ctx.destination);
  source.start(startAt);
  items.push({ index: message.index, source, startAt, endAt: startAt + buffer.duration, started: false });
  watchClock(ctx);
}
// Nothing is heard and no sentence starts when the audio output never opens: say so once, for the log.
let clockWatched = false;
function watchClock(ctx) {
  if (clockWatched) return;
  clockWatched = true;
  const from = ctx.currentTime;
  setTimeout(() => {
    if (!paused && ctx.currentTime <= from) {
      vscode.postMessage({ type: 'error', message: 'the audio output did not start: its clock stayed at ' + from.toFixed(2) + ' s for 2 s (AudioContext ' + ctx.state + ')' });
    }
  }, 2000);
}
function drop(from) {
  items = items.filter((item) => {
    if (item.index < from) return true;
    try { item.source.stop(); } catch {}
    item.source.disconnect();
    return false;
  });
}
function tick() {
  if (!context) return;
  const now = context.currentTime;
  while (items.length > 0) {
    const item = items[0];
    if (!item.started && now >= item.startAt) {
      item.started = true;
      vscode.postMessage({ type: 'started', index: item.index });
      status.textContent = 'Sentence ' + (item.index + 1);
    }
    if (item.started && now >= item.endAt) {
      items.shift();
      vscode.postMessage({ type: 'ended', index: item.index });
      continue;
    }
    if (item.started && !paused) vscode.postMessage({ type: 'time', index: item.index, seconds: now - item.startAt });
    break;
  }
}
setInterval(tick, 40);
window.addEventListener('message', (event) => {
  const message = event.data;
  try {
    switch (message.type) {
      case 'enqueue': enqueue(message); break;
      case 'drop': drop(message.from); break;
      case 'pause': paused = true; if (context) void context.suspend(); status.textContent = 'Paused'; break;
      case 'resume': paused = false; if (context) void context.resume(); break;
      // A reading stopped while paused must not leave the next one paused.
      case 'stop': drop(0); paused = false; status.textContent = 'Stopped'; break;
      case 'title': document.getElementById('title').textContent = message.text; break;
    }
  } catch (error) {
    vscode.postMessage({ type: 'error', message: String(error && error.message || error) });
  }
});
vscode.postMessage({ type: 'ready', page: PAGE });
`;
