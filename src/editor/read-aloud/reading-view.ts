/**
 * What Read Aloud shows in the window: the sentence and the word being spoken highlighted in the editor
 * (which scrolls to follow), and the reader bar in the status bar while a reading is on: the position, the
 * controls, the voice (click: Choose Voice) and the speed (click: pick one).
 */
import * as vscode from 'vscode';
import type { ReadingState } from '../../read-aloud/reading-session';

const CONTROLS: { command: string; icon: string; tooltip: string }[] = [
  { command: 'speechStudio.readAloud.previous', icon: '$(debug-step-back)', tooltip: 'Read Aloud: previous sentence' },
  { command: 'speechStudio.readAloud.togglePause', icon: '$(debug-pause)', tooltip: 'Read Aloud: pause or resume' },
  { command: 'speechStudio.readAloud.next', icon: '$(debug-step-over)', tooltip: 'Read Aloud: next sentence' },
  { command: 'speechStudio.readAloud.stop', icon: '$(debug-stop)', tooltip: 'Read Aloud: stop' },
];

export class ReadingView implements vscode.Disposable {
  private readonly sentenceDecoration = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('editor.findMatchHighlightBackground'),
    borderRadius: '2px',
  });
  private readonly wordDecoration = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('editor.findMatchBackground'),
    borderColor: new vscode.ThemeColor('editor.findMatchBorder'),
    borderStyle: 'solid',
    borderWidth: '1px',
    borderRadius: '2px',
  });
  private readonly label: vscode.StatusBarItem;
  private readonly controls: vscode.StatusBarItem[];
  private readonly speedItem: vscode.StatusBarItem;
  private readonly voiceItem: vscode.StatusBarItem;

  constructor() {
    this.label = vscode.window.createStatusBarItem('speechStudio.readAloud', vscode.StatusBarAlignment.Left, 100);
    this.label.name = 'Read Aloud';
    this.label.command = 'speechStudio.readAloud.togglePause';
    this.controls = CONTROLS.map(({ command, icon, tooltip }, i) => {
      const item = vscode.window.createStatusBarItem(
        `speechStudio.readAloud.${command.split('.').pop()}`,
        vscode.StatusBarAlignment.Left,
        99 - i,
      );
      item.name = tooltip;
      item.text = icon;
      item.tooltip = tooltip;
      item.command = command;
      return item;
    });
    this.speedItem = vscode.window.createStatusBarItem(
      'speechStudio.readAloud.speed',
      vscode.StatusBarAlignment.Left,
      90,
    );
    this.speedItem.name = 'Read Aloud speed';
    this.speedItem.tooltip = 'Read Aloud: choose the speed (from the next sentence)';
    this.speedItem.command = 'speechStudio.readAloud.chooseSpeed';
    this.voiceItem = vscode.window.createStatusBarItem(
      'speechStudio.readAloud.voice',
      vscode.StatusBarAlignment.Left,
      89,
    );
    this.voiceItem.name = 'Read Aloud voice';
    this.voiceItem.tooltip = 'Read Aloud: choose the voice (the next reading uses it)';
    this.voiceItem.command = 'speechStudio.chooseVoice';
  }

  private get items(): vscode.StatusBarItem[] {
    return [this.label, ...this.controls, this.speedItem, this.voiceItem];
  }

  /** The status bar for a reading in `state`, at sentence `index` of `count`. */
  showStatus(state: ReadingState, index: number, count: number, speed: number, voiceName: string): void {
    const over = state === 'finished' || state === 'stopped';
    if (over) {
      this.hideStatus();
      return;
    }
    const icon = state === 'paused' ? '$(debug-pause)' : state === 'loading' ? '$(loading~spin)' : '$(unmute)';
    this.label.text = `${icon} Read Aloud ${index + 1}/${count}`;
    this.label.tooltip = state === 'paused' ? 'Read Aloud is paused: click to resume' : 'Read Aloud: click to pause';
    this.controls[1].text = state === 'paused' ? '$(debug-continue)' : '$(debug-pause)';
    this.speedItem.text = `$(dashboard) ${speed.toFixed(2).replace(/0$/, '')}×`;
    this.voiceItem.text = `$(person) ${voiceName}`;
    for (const item of this.items) item.show();
    void vscode.commands.executeCommand('setContext', 'speechStudio.reading', true);
  }

  hideStatus(): void {
    for (const item of this.items) item.hide();
    void vscode.commands.executeCommand('setContext', 'speechStudio.reading', false);
  }

  /** Highlights `range` in every editor showing `document`; `reveal` scrolls the first to it when it is out of view. */
  highlightSentence(document: vscode.TextDocument, range: vscode.Range, reveal = true): void {
    for (const editor of this.editorsOf(document)) {
      editor.setDecorations(this.sentenceDecoration, [range]);
      editor.setDecorations(this.wordDecoration, []);
    }
    if (reveal) this.editorsOf(document)[0]?.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  highlightWord(document: vscode.TextDocument, range: vscode.Range): void {
    for (const editor of this.editorsOf(document)) editor.setDecorations(this.wordDecoration, [range]);
  }

  clearHighlights(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      editor.setDecorations(this.sentenceDecoration, []);
      editor.setDecorations(this.wordDecoration, []);
    }
  }

  private editorsOf(document: vscode.TextDocument): vscode.TextEditor[] {
    return vscode.window.visibleTextEditors.filter((editor) => editor.document === document);
  }

  dispose(): void {
    this.hideStatus();
    this.sentenceDecoration.dispose();
    this.wordDecoration.dispose();
    for (const item of this.items) item.dispose();
  }
}
