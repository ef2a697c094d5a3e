/**
 * The Problems a proof-listen leaves on a document: one diagnostic per finding (skipped, added, said
 * differently) with its time in the narration; quick fixes "Add pronunciation…" (the Add Pronunciation flow
 * for the written words) and "▶ Play this spot", and the same play link in the hover. Editing the document
 * clears them: their ranges and times no longer describe it.
 */
import * as vscode from 'vscode';
import type { Finding, FindingKind } from '../../proof-listen/findings';
import { formatTimestamp } from '../../subtitles/timestamps';
import type { AudioPlayer, PlayerReport } from '../audio-player';

export const PROOF_LISTEN_SOURCE = 'Speech Studio proof-listen';
export const PLAY_SPOT_COMMAND = 'speechStudio.proofListen.playSpot';
const ADD_PRONUNCIATION_COMMAND = 'speechStudio.addPronunciation';

/** A lexicon entry is for a name or a term: a longer run of differences is a misreading, not a pronunciation. */
const MAX_PRONUNCIATION_WORDS = 4;
const pronounceable = (finding: Finding): boolean =>
  finding.kind !== 'added' && finding.written.split(' ').length <= MAX_PRONUNCIATION_WORDS;

/** Seconds of narration played before and after a finding, so the ear hears it in context. */
const LEAD_IN_SECONDS = 0.5;
const LEAD_OUT_SECONDS = 1;

const clock = (seconds: number): string => formatTimestamp(seconds, '.').replace(/^00:/, '');

/** The diagnostic message of a finding. */
export function describeFinding(finding: Finding): string {
  const at = `(at ${clock(finding.time.start)})`;
  switch (finding.kind) {
    case 'skipped':
      return `Skipped in the narration: "${finding.written}" ${at}`;
    case 'added':
      return `Added in the narration: "${finding.heard}" ${at}`;
    default:
      return `Said differently: "${finding.written}" was heard as "${finding.heard}" ${at}`;
  }
}

/** What one proof-listen of a document left: the narration it heard and what it found. */
interface ProofListened {
  narration: string;
  /** Seconds. */
  duration: number;
  findings: Finding[];
  ranges: vscode.Range[];
}

/** What "▶ Play this spot" started. */
export interface SpotPlayback {
  finding: Finding;
  report: PlayerReport;
}

export class ProofListenProblems implements vscode.CodeActionProvider, vscode.HoverProvider, vscode.Disposable {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];
  private readonly collection = vscode.languages.createDiagnosticCollection('speechStudio.proofListen');
  private readonly results = new Map<string, ProofListened>();
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly player: AudioPlayer) {
    this.disposables = [
      this.collection,
      vscode.languages.registerCodeActionsProvider({ scheme: '*' }, this, {
        providedCodeActionKinds: ProofListenProblems.kinds,
      }),
      vscode.languages.registerHoverProvider({ scheme: '*' }, this),
      vscode.commands.registerCommand(PLAY_SPOT_COMMAND, (uri: string, index: number) => this.playSpot(uri, index)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.clear(event.document.uri);
      }),
      vscode.workspace.onDidCloseTextDocument((document) => this.clear(document.uri)),
    ];
  }

  /** Replaces the document's proof-listen problems with `findings`; returns the diagnostics set. */
  show(
    document: vscode.TextDocument,
    narration: { file: string; duration: number },
    findings: Finding[],
  ): vscode.Diagnostic[] {
    const ranges = findings.map((f) => new vscode.Range(document.positionAt(f.start), document.positionAt(f.end)));
    const diagnostics = findings.map((finding, i) => {
      const severity =
        finding.kind === 'added' ? vscode.DiagnosticSeverity.Information : vscode.DiagnosticSeverity.Warning;
      const diagnostic = new vscode.Diagnostic(ranges[i], describeFinding(finding), severity);
      diagnostic.source = PROOF_LISTEN_SOURCE;
      diagnostic.code = finding.kind;
      return diagnostic;
    });
    this.results.set(document.uri.toString(), {
      narration: narration.file,
      duration: narration.duration,
      findings,
      ranges,
    });
    this.collection.set(document.uri, diagnostics);
    return diagnostics;
  }

  clear(uri: vscode.Uri): void {
    if (!this.results.delete(uri.toString())) return;
    this.collection.delete(uri);
  }

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const result = this.results.get(document.uri.toString());
    if (!result) return [];
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== PROOF_LISTEN_SOURCE) continue;
      const index = result.ranges.findIndex(
        (range, i) => range.isEqual(diagnostic.range) && result.findings[i].kind === (diagnostic.code as FindingKind),
      );
      if (index < 0) continue;
      const finding = result.findings[index];
      if (pronounceable(finding)) {
        const add = new vscode.CodeAction(
          `Add pronunciation for "${finding.written}"…`,
          vscode.CodeActionKind.QuickFix,
        );
        add.command = {
          title: 'Add pronunciation…',
          command: ADD_PRONUNCIATION_COMMAND,
          arguments: [{ text: finding.written }],
        };
        add.diagnostics = [diagnostic];
        add.isPreferred = finding.kind === 'said-differently';
        actions.push(add);
      }
      const play = new vscode.CodeAction(
        `▶ Play this spot (${clock(finding.time.start)})`,
        vscode.CodeActionKind.QuickFix,
      );
      play.command = {
        title: '▶ Play this spot',
        command: PLAY_SPOT_COMMAND,
        arguments: [document.uri.toString(), index],
      };
      play.diagnostics = [diagnostic];
      actions.push(play);
    }
    return actions;
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const result = this.results.get(document.uri.toString());
    const index = result?.ranges.findIndex((range) => range.contains(position)) ?? -1;
    if (!result || index < 0) return undefined;
    const finding = result.findings[index];
    const play = encodeURIComponent(JSON.stringify([document.uri.toString(), index]));
    const links = [`[▶ Play this spot](command:${PLAY_SPOT_COMMAND}?${play}) — ${clock(finding.time.start)}`];
    if (pronounceable(finding)) {
      links.push(
        `[Add pronunciation…](command:${ADD_PRONUNCIATION_COMMAND}?${encodeURIComponent(JSON.stringify([{ text: finding.written }]))})`,
      );
    }
    const markdown = new vscode.MarkdownString(links.join(' · '));
    markdown.isTrusted = { enabledCommands: [PLAY_SPOT_COMMAND, ADD_PRONUNCIATION_COMMAND] };
    return new vscode.Hover(markdown, result.ranges[index]);
  }

  /** Plays the narration around finding `index` of the document `uri`. */
  async playSpot(uri: string, index: number): Promise<SpotPlayback | undefined> {
    const result = this.results.get(uri);
    const finding = result?.findings[index];
    if (!result || !finding) {
      void vscode.window.showInformationMessage(
        'Run "Proof-Listen Document" again: the document changed since its narration.',
      );
      return undefined;
    }
    const start = Math.max(0, finding.time.start - LEAD_IN_SECONDS);
    const { started } = this.player.playSpan(
      result.narration,
      `Proof-listen at ${clock(finding.time.start)}`,
      start,
      Math.min(result.duration, finding.time.end + LEAD_OUT_SECONDS),
    );
    return { finding, report: await started };
  }

  dispose(): void {
    vscode.Disposable.from(...this.disposables).dispose();
    this.results.clear();
  }
}
