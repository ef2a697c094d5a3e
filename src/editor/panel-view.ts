/**
 * One webview view of the Speech Studio panel (the bottom panel, beside Read Aloud), shown on demand: the
 * player and the timeline live there instead of in editor tabs, so listening and timeline editing leave the
 * document where it is. The view appears (its `when` context key turns on) the first time it is shown, opens
 * without taking the focus, keeps its page while the panel shows something else, and goes away with its
 * Close action.
 */
import * as vscode from 'vscode';

export class PanelView implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private waiting: Array<(view: vscode.WebviewView) => void> = [];
  private readonly closed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  /** The view went away (closed, or hidden from the panel): its page is gone. */
  readonly onDidClose = this.closed.event;

  /** `contextKey` is the `when` clause of the view in package.json; `closeCommand` its Close action. */
  constructor(readonly viewType: string, private readonly contextKey: string, closeCommand: string) {
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
      this.closed.fire();
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
      const view = await Promise.race([made, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000))]);
      if (view) return view;
    }
    throw new Error(`the ${this.viewType} view did not open in the Speech Studio panel`);
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
