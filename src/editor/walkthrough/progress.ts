/**
 * Completes the walkthrough's steps on what really happened, never on a click: each step's
 * `completionEvents` waits for a context key that this module sets when a job of its kind succeeded, a model
 * appeared in the data directory, or a job arrived through the Local API. A step once done stays done.
 */
import * as vscode from 'vscode';
import type { JobRecord } from '../../jobs/types';
import { milestoneOfJob, type Milestone } from './milestones';
import { listSttModels } from '../../models/installed-models';
import type { Services } from '../services';

const STATE_KEY = 'speechStudio.walkthrough.reached';

export class WalkthroughProgress implements vscode.Disposable {
  private readonly reached: Set<Milestone>;
  private readonly disposables: vscode.Disposable[] = [];
  private recheck: NodeJS.Timeout | undefined;

  constructor(private readonly services: Services) {
    this.reached = new Set(services.context.globalState.get<Milestone[]>(STATE_KEY, []));
    for (const milestone of this.reached) void this.announce(milestone);
    this.disposables.push(services.controller.onDidChangeJob((job) => this.onJob(job)));
    this.watchModels();
    void this.checkInstalled();
    for (const job of services.controller.jobs()) this.onJob(job);
  }

  has(milestone: Milestone): boolean {
    return this.reached.has(milestone);
  }

  /** Looks at the data directory again soon (after an install, or when its models folder changes). */
  checkSoon(): void {
    clearTimeout(this.recheck);
    this.recheck = setTimeout(() => void this.checkInstalled(), 300);
  }

  private onJob(job: JobRecord): void {
    const milestone = milestoneOfJob(job);
    if (milestone) void this.reach(milestone);
  }

  private watchModels(): void {
    const pattern = new vscode.RelativePattern(vscode.Uri.file(this.services.controller.dataDir), 'models/**');
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    this.disposables.push(
      watcher,
      watcher.onDidCreate(() => this.checkSoon()),
      watcher.onDidChange(() => this.checkSoon()),
    );
  }

  private async checkInstalled(): Promise<void> {
    const voices = this.services.voices.list({
      scope: 'installed',
      sortBy: 'name',
      sortDirection: 'asc',
      page: 1,
      limit: 10_000,
    }).items;
    // Built-in voices are always ready: a natural voice is one that was installed (a model or lingware).
    if (voices.some((voice) => voice.creationMode !== 'builtin')) await this.reach('naturalVoice');
    if ((await listSttModels(this.services.controller.dataDir)).length > 0) await this.reach('sttModel');
  }

  private async reach(milestone: Milestone): Promise<void> {
    if (this.reached.has(milestone)) return;
    this.reached.add(milestone);
    await this.services.context.globalState.update(STATE_KEY, [...this.reached]);
    await this.announce(milestone);
  }

  private announce(milestone: Milestone): Thenable<unknown> {
    return vscode.commands.executeCommand('setContext', `speechStudio.walkthrough.${milestone}`, true);
  }

  dispose(): void {
    clearTimeout(this.recheck);
    for (const disposable of this.disposables) disposable.dispose();
  }
}
