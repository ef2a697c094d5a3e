/**
 * Plays audio where the editor can: a webview with an <audio> element. One panel, reused for each
 * narration. (In a remote or web window the audio streams from the extension host's disk.)
 */
import path from 'node:path';
import * as vscode from 'vscode';

export class AudioPlayer implements vscode.Disposable {
  static readonly viewType = 'speechStudio.player';
  private panel: vscode.WebviewPanel | undefined;

  /** Shows the player for `file` (an absolute path) and starts playing. */
  play(file: string, title: string): vscode.WebviewPanel {
    const folder = vscode.Uri.file(path.dirname(file));
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(AudioPlayer.viewType, 'Speech Studio Player', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: false,
        localResourceRoots: [folder],
      });
      this.panel.onDidDispose(() => (this.panel = undefined));
    }
    const webview = this.panel.webview;
    webview.options = { enableScripts: false, localResourceRoots: [folder] };
    const source = webview.asWebviewUri(vscode.Uri.file(file));
    webview.html = page(webview.cspSource, source.toString(), title);
    this.panel.reveal(vscode.ViewColumn.Beside, true);
    return this.panel;
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  dispose(): void {
    this.panel?.dispose();
  }
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(cspSource: string, source: string, title: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; media-src ${cspSource}; style-src 'unsafe-inline';">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 1.5em; }
  h2 { font-weight: 500; font-size: 1.1em; margin: 0 0 1em; }
  audio { width: 100%; max-width: 40em; }
</style></head>
<body><h2>${escapeHtml(title)}</h2><audio controls autoplay src="${escapeHtml(source)}"></audio></body></html>`;
}
