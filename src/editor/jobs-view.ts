/**
 * The Jobs view: every job (editor, Local API and team relay) with its status, progress and phase, updated live, and
 * the actions on one job: cancel, open the output, reveal it, delete it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { jobKindOf } from '../jobs/kinds';
import { isActive, type JobRecord } from '../jobs/types';
import { describePhase } from './job-progress';
import { reportError } from './log';
import type { Services } from './services';
import { copyJobCurl, copyJobId, openApiDocument } from './job-copy';

const ICONS: Record<JobRecord['status'], [string, string?]> = {
  queued: ['clock'],
  loading_model: ['sync~spin'],
  processing: ['sync~spin'],
  succeeded: ['pass', 'testing.iconPassed'],
  failed: ['error', 'testing.iconFailed'],
  cancelled: ['circle-slash'],
  interrupted: ['debug-disconnect', 'problemsWarningIcon.foreground'],
};

const STATUS_WORDS: Record<JobRecord['status'], string> = {
  queued: 'queued',
  loading_model: 'loading model',
  processing: 'processing',
  succeeded: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};

function contextValue(job: JobRecord): string {
  if (isActive(job.status)) return 'job-active';
  return job.status === 'succeeded' ? 'job-succeeded' : 'job-finished';
}

/** Where a job came from, in words; a remote job names the relay key that asked for it. */
export function jobOrigin(job: Pick<JobRecord, 'origin' | 'remoteKeyName'>): string {
  if (job.origin === 'editor') return 'editor command';
  if (job.origin === 'api') return 'Local API';
  if (job.origin === 'cli') return 'command line';
  if (job.origin === 'mcp') return 'MCP';
  return job.remoteKeyName ? `team relay, key "${job.remoteKeyName}"` : 'team relay';
}

export function jobDescription(job: JobRecord): string {
  const kind = jobKindOf(job.kind).label;
  const remote = job.origin === 'remote' ? ` · remote${job.remoteKeyName ? ` (${job.remoteKeyName})` : ''}` : '';
  if (!isActive(job.status)) {
    const seconds =
      job.finishedAt && job.startedAt ? ` · ${((job.finishedAt - job.startedAt) / 1000).toFixed(1)} s` : '';
    return `${kind} · ${STATUS_WORDS[job.status]}${seconds}${remote}`;
  }
  const phase = job.status === 'queued' ? '' : ` · ${describePhase(job.phase)}`;
  return `${kind} · ${Math.floor(job.progress)}%${phase}${remote}`;
}

class JobsProvider implements vscode.TreeDataProvider<JobRecord> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly services: Services) {}

  refresh(): void {
    this.changed.fire();
  }

  getChildren(element?: JobRecord): JobRecord[] {
    return element ? [] : this.services.controller.jobs();
  }

  /** A subtitle narration is named after its file (its text starts with cue numbers and timings). */
  private label(job: JobRecord): string {
    const input = job.input;
    if (input.kind !== 'tts' || input.options.inputFormat === 'txt') return job.name;
    const written = this.services.outputs.get(job.id);
    return written
      ? `Narration → ${path.basename(written)}`
      : `Narration of ${input.options.inputFormat.toUpperCase()} subtitles`;
  }

  getTreeItem(job: JobRecord): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label(job), vscode.TreeItemCollapsibleState.None);
    item.id = job.id;
    item.description = jobDescription(job);
    const [icon, color] = ICONS[job.status];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.contextValue = contextValue(job);
    const tooltip = new vscode.MarkdownString(
      `**${this.label(job)}**\n\n${jobDescription(job)} — from the ${jobOrigin(job)}\n\nCreated ${new Date(job.createdAt).toLocaleString()}`,
    );
    if (job.error) tooltip.appendMarkdown(`\n\n${job.error}`);
    item.tooltip = tooltip;
    if (job.status === 'succeeded')
      item.command = { command: 'speechStudio.job.open', title: 'Open Output', arguments: [job] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The file to show for a job: what a command wrote for it, else the output in the job's folder. */
async function fileOf(services: Services, job: JobRecord): Promise<string | undefined> {
  const written = services.outputs.get(job.id);
  if (written && existsSync(written)) return written;
  const userOutput = jobKindOf(job.kind).userOutput?.(job);
  if (userOutput !== undefined) return job.status === 'succeeded' && existsSync(userOutput) ? userOutput : undefined;
  return services.editorJobs.outputPath(job);
}

async function openOutput(services: Services, job: JobRecord): Promise<void> {
  const file = await fileOf(services, job);
  if (!file) throw new Error('The job has no output: it did not succeed, or its files were deleted.');
  const openWith = jobKindOf(job.kind).openWith;
  if (openWith === 'reveal') return revealOutput(services, job);
  if (openWith === 'player' && !/\.(srt|vtt|txt|json)$/i.test(file)) services.player.play(file, job.name);
  else await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
}

async function revealOutput(services: Services, job: JobRecord): Promise<void> {
  const file = await fileOf(services, job);
  if (!file) throw new Error('The job has no output to reveal.');
  const uri = vscode.Uri.file(file);
  if (vscode.workspace.getWorkspaceFolder(uri)) {
    await vscode.commands.executeCommand('revealInExplorer', uri);
  } else if (vscode.env.uiKind === vscode.UIKind.Desktop && !vscode.env.remoteName) {
    await vscode.commands.executeCommand('revealFileInOS', uri);
  } else {
    const choice = await vscode.window.showInformationMessage(`The output is at ${file}`, 'Copy Path');
    if (choice) await vscode.env.clipboard.writeText(file);
  }
}

export function registerJobsView(services: Services): vscode.Disposable {
  const provider = new JobsProvider(services);
  const view = vscode.window.createTreeView('speechStudio.jobs', {
    treeDataProvider: provider,
    showCollapseAll: false,
  });
  let timer: NodeJS.Timeout | undefined;
  const update = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      provider.refresh();
      const active = services.controller.jobs().filter((job) => isActive(job.status)).length;
      view.badge =
        active > 0 ? { value: active, tooltip: `${active} active job${active === 1 ? '' : 's'}` } : undefined;
      const state = services.controller.state;
      view.message = state.kind === 'failed' ? `The server could not start: ${state.message}` : undefined;
    }, 100);
  };
  // The tree passes its element; other callers may pass a job id or any object with one.
  const jobOf = (given?: JobRecord | { id: string } | string): JobRecord | undefined => {
    const id = typeof given === 'string' ? given : (given ?? view.selection[0])?.id;
    return id === undefined ? undefined : services.controller.jobs().find((job) => job.id === id);
  };
  const action =
    (what: string, run: (job: JobRecord) => Promise<unknown>) =>
    async (given?: JobRecord | { id: string } | string) => {
      const target = jobOf(given);
      if (!target) return;
      try {
        await run(target);
      } catch (error) {
        reportError(services.log, what, error);
      }
    };
  update();
  return vscode.Disposable.from(
    view,
    provider,
    services.controller.onDidChangeJob(update),
    services.controller.onDidChangeState(update),
    new vscode.Disposable(() => clearTimeout(timer)),
    vscode.commands.registerCommand(
      'speechStudio.job.cancel',
      action('Cancelling the job failed', async (job) => (await services.controller.ready()).jobs.cancel(job.id)),
    ),
    vscode.commands.registerCommand(
      'speechStudio.job.open',
      action('Opening the output failed', (job) => openOutput(services, job)),
    ),
    vscode.commands.registerCommand(
      'speechStudio.job.reveal',
      action('Revealing the output failed', (job) => revealOutput(services, job)),
    ),
    vscode.commands.registerCommand('speechStudio.job.copyId', async (given?: JobRecord | { id: string } | string) => {
      const target = jobOf(given);
      return target ? copyJobId(target) : undefined;
    }),
    vscode.commands.registerCommand(
      'speechStudio.job.copyCurl',
      async (given?: JobRecord | { id: string } | string) => {
        const target = jobOf(given);
        return target ? copyJobCurl(services, target) : undefined;
      },
    ),
    vscode.commands.registerCommand('speechStudio.openApiDocument', () => openApiDocument(services)),
    vscode.commands.registerCommand(
      'speechStudio.job.delete',
      action('Deleting the job failed', async (job) => {
        await (await services.controller.ready()).jobs.delete(job.id);
        await services.outputs.delete(job.id);
        update();
      }),
    ),
  );
}
