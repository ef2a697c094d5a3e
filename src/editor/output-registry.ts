/**
 * Which file a command wrote for a job (an SRT beside the video, a narration beside the subtitles), so
 * that the Jobs view opens and reveals the user's file rather than the copy in the job folder. Kept in
 * the extension's global state; entries go when their job is deleted.
 */
import type * as vscode from 'vscode';

const KEY = 'speechStudio.writtenOutputs';
const MAX_ENTRIES = 2000;

export class OutputRegistry {
  constructor(private readonly state: vscode.Memento) {}

  get(jobId: string): string | undefined {
    return this.all()[jobId];
  }

  async set(jobId: string, file: string): Promise<void> {
    const entries = Object.entries({ ...this.all(), [jobId]: file }).slice(-MAX_ENTRIES);
    await this.state.update(KEY, Object.fromEntries(entries));
  }

  async delete(jobId: string): Promise<void> {
    const { [jobId]: _gone, ...rest } = this.all();
    await this.state.update(KEY, rest);
  }

  private all(): Record<string, string> {
    return this.state.get<Record<string, string>>(KEY, {});
  }
}
