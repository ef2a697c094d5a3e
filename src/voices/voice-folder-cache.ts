/**
 * What the voice folders of one data directory hold, read once and kept in memory: listing voices reads
 * every voice.json and looks for every catalog file, which costs far more than answering the request.
 * The copy is dropped when the folders change: at once after this process's own writes (folder-changes.ts),
 * on a file system event from the folders (fs.watch, for other processes' writes), and, should an event be
 * missed or a watch fail, when a cheap signature of the folders (a few stat calls, at most once a second)
 * differs from the one taken with the copy.
 */
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { folderChangeCount } from '../util/folder-changes';
import { MANIFEST_FILE } from './voice-manifest';

/** How often the signature may be taken; a change another process makes shows within this even without events. */
export const SIGNATURE_CHECK_MS = 1000;
/** Watched voice folders at most; past this the signature alone notices changes inside the others. */
const MAX_WATCHED_FOLDERS = 64;

function mtimeOf(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}

function foldersIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

export class VoiceFolderCache<T> {
  private value: { of: T } | undefined;
  private signature = '';
  private seenChanges = -1;
  private checkedAt = 0;
  private readonly watchers = new Map<string, FSWatcher>();

  constructor(
    readonly modelsDir: string,
    private readonly read: () => T,
  ) {}

  /** The folders' contents, read again only when they may have changed. */
  get(): T {
    if (this.value && !this.stale()) return this.value.of;
    // Everything that notices a change is reset before reading, so a change made while reading is noticed next time.
    this.seenChanges = folderChangeCount(this.modelsDir);
    this.signature = this.sign();
    this.checkedAt = Date.now();
    this.watchFolders();
    this.value = { of: this.read() };
    return this.value.of;
  }

  /** Stops watching; the next `get` reads the folders again. */
  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.value = undefined;
  }

  private stale(): boolean {
    if (folderChangeCount(this.modelsDir) !== this.seenChanges) return true;
    if (Date.now() - this.checkedAt < SIGNATURE_CHECK_MS) return false;
    this.checkedAt = Date.now();
    return this.sign() !== this.signature;
  }

  private get ttsDir(): string {
    return path.join(this.modelsDir, 'tts');
  }

  /** The modification times of the folders that say which voices there are and whether they are ready. */
  private sign(): string {
    const parts = [this.modelsDir, this.ttsDir, path.join(this.modelsDir, '.partial')].map(mtimeOf);
    for (const folder of foldersIn(this.ttsDir)) {
      const dir = path.join(this.ttsDir, folder);
      parts.push(mtimeOf(dir), mtimeOf(path.join(dir, MANIFEST_FILE)));
    }
    return parts.join(',');
  }

  private watchFolders(): void {
    const wanted = [
      path.dirname(this.modelsDir),
      this.modelsDir,
      this.ttsDir,
      path.join(this.modelsDir, '.partial'),
      ...foldersIn(this.ttsDir)
        .slice(0, MAX_WATCHED_FOLDERS)
        .map((folder) => path.join(this.ttsDir, folder)),
    ];
    for (const [dir, watcher] of this.watchers) {
      if (wanted.includes(dir)) continue;
      watcher.close();
      this.watchers.delete(dir);
    }
    for (const dir of wanted) {
      if (this.watchers.has(dir)) continue;
      try {
        // The data directory's own changes (the job store's writes) matter only when they are the models folder.
        const only = dir === path.dirname(this.modelsDir) ? path.basename(this.modelsDir) : undefined;
        // Not persistent: a watch never keeps the process alive.
        const watcher = watch(dir, { persistent: false }, (_event, name) => {
          if (only === undefined || name === null || String(name) === only) this.value = undefined;
        });
        watcher.on('error', () => {
          watcher.close();
          this.watchers.delete(dir);
          this.value = undefined;
        });
        this.watchers.set(dir, watcher);
      } catch {
        // A folder that does not exist yet: the signature notices when it appears.
      }
    }
  }
}
