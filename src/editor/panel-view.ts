/**
 * One webview view of the Speech Studio panel (the bottom panel, beside Read Aloud), shown on demand: the
 * player and the timeline live there instead of in editor tabs, so listening and timeline editing leave the
 * document where it is. The view appears (its `when` context key turns on) the first time it is shown, opens
 * without taking the focus, keeps its page while the panel shows something else, and goes away with its
 * Close action.
 */
import * as vscode from 'vscode';
import type { Logger } from '../util/log';

/**
 * A page that has not said it is ready by then is loaded into a new view, at most twice. VS Code can leave a
 * webview blank for good: when two webviews of a fresh window are made at once (the panel opening on two of
 * its views), one of them may never receive its page, and setting its HTML again changes nothing. Only a new
 * view (a new frame) recovers.
 */
const PAGE_READY_BOUND_MS = 8000;
const PAGE_REMAKES = 2;
/** How long a remake waits for the old view to go before it shows the new one anyway. */
const VIEW_GONE_BOUND_MS = 5000;

export class PanelView implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private waiting: Array<(view: vscode.WebviewView) => void> = [];
  private readonly closed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  /** While a blank view is being replaced: its going is not a close. */
  private remaking = false;
  /** The view went away (closed, or hidden from the panel): its page is gone. */
  readonly onDidClose = this.closed.event;

  /** `contextKey` is the `when` clause of the view in package.json; `closeCommand` its Close action. */
  constructor(
    readonly viewType: string,
    private readonly contextKey: string,
    closeCommand: string,
    private readonly log?: Logger,
  ) {
    this.disposables.push(
      this.closed,
      // Retained while the panel shows another view or is closed: the audio plays on, the timeline keeps its place.
      vscode.window.registerWebviewViewProvider(viewType, this, { webviewOptions: { retainContextWhenHidden: true } }),
      vscode.commands.registerCommand(closeCommand, () => this.close()),
    );
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.onDidDispose(() => {
      if (this.view !== view) return;
      this.view = undefined;
      if (!this.remaking) this.closed.fire();
    });
    for (const resolve of this.waiting.splice(0)) resolve(view);
  }

  /** The view, shown in the panel without taking the focus (made on the first call). */
  async show(): Promise<vscode.WebviewView> {
    await vscode.commands.executeCommand('setContext', this.contextKey, true);
    if (this.view) {
      this.view.show(true);
      return this.view;
    }
    const made = new Promise<vscode.WebviewView>((resolve) => this.waiting.push(resolve));
    // The workbench learns of the context key a moment after setContext returns: until it does, opening the
    // view does nothing, so it is asked again while the view is not made.
    for (let attempt = 0; attempt < 10; attempt++) {
      await vscode.commands.executeCommand(`${this.viewType}.focus`, { preserveFocus: true });
      const view = await Promise.race([
        made,
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000)),
      ]);
      if (view) return view;
    }
    throw new Error(`the ${this.viewType} view did not open in the Speech Studio panel`);
  }

  /**
   * Shows the view and loads a page into it with `load`. A page for which `isDone()` (ready, or no longer
   * wanted) is not true within the bound is loaded again into a new view: `load` runs with that view, and
   * onDidClose does not fire for the blank one. `what` names the page in the log.
   */
  async showPage(
    what: string,
    load: (view: vscode.WebviewView) => void,
    isDone: () => boolean,
  ): Promise<vscode.WebviewView> {
    const view = await this.show();
    load(view);
    this.remakeUnlessDone(view, what, load, isDone, PAGE_REMAKES);
    return view;
  }

  private remakeUnlessDone(
    view: vscode.WebviewView,
    what: string,
    load: (view: vscode.WebviewView) => void,
    isDone: () => boolean,
    remakesLeft: number,
  ): void {
    const timer = setTimeout(() => {
      if (this.view !== view || isDone()) return;
      if (remakesLeft === 0) {
        this.log?.warn(`${what} did not load in a new view either; close the view and try again.`);
        return;
      }
      this.log?.warn(`${what} did not load within ${PAGE_READY_BOUND_MS} ms; making its view again.`);
      void this.remake().then(
        (made) => {
          if (isDone()) return;
          load(made);
          this.remakeUnlessDone(made, what, load, isDone, remakesLeft - 1);
        },
        (error: unknown) => this.log?.warn(`${what}: making its view again failed: ${String(error)}`),
      );
    }, PAGE_READY_BOUND_MS);
    timer.unref?.();
  }

  /** Replaces the view with a new one (a new frame): takes it out of the panel, then shows it again. */
  private async remake(): Promise<vscode.WebviewView> {
    const old = this.view;
    this.remaking = true;
    try {
      if (old) {
        const gone = new Promise<void>((resolve) => old.onDidDispose(() => resolve()));
        await vscode.commands.executeCommand('setContext', this.contextKey, false);
        await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, VIEW_GONE_BOUND_MS))]);
      }
      return await this.show();
    } finally {
      this.remaking = false;
    }
  }

  /** Takes the view out of the panel; its page goes (onDidClose fires). */
  async close(): Promise<void> {
    await vscode.commands.executeCommand('setContext', this.contextKey, false);
  }

  dispose(): void {
    void this.close();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
