/**
 * `node dist/cli.js models list | install <id> | remove <id> | verify | import [<id>] <path>`: the model
 * manager for terminals. Results go to stdout, progress and errors to stderr; the exit code is 0 on
 * success, 1 on failure, 2 for a usage error and 130 when Ctrl+C cancelled a download.
 */
import type { Catalog } from '../models/catalog';
import { entryBytes } from '../models/catalog';
import { hasCode } from '../contract/errors';
import {
  createModelManager,
  type InstallResult,
  type ModelManager,
  type ModelManagerOptions,
} from '../models/model-manager';
import type { ModelListing } from '../models/model-status';
import { modelsDir, targetPath } from '../models/model-paths';
import type { ProxyEnv } from '../models/proxy';
import { failureText } from './failure-text';
import { formatBytes, ProgressLine, type ProgressStream } from './progress-line';

export const MODELS_USAGE = `Usage:
  node dist/cli.js models list [--data-dir D]
  node dist/cli.js models install <id>... [--data-dir D] [--mirror URL]
  node dist/cli.js models remove <id> [--data-dir D]
  node dist/cli.js models verify [--data-dir D]
  node dist/cli.js models import <id> <file-or-folder> [--data-dir D]
  node dist/cli.js models import <file> [--data-dir D]   (a catalog file, or any whisper ggml model)

Downloads honour HTTPS_PROXY, HTTP_PROXY and NO_PROXY. A company mirror of the files
(<mirror>/<host>/<path>) is set with --mirror or SPEECH_STUDIO_MODEL_MIRROR.`;

export interface ModelsCommandOptions {
  mirror?: string;
  /** The proxy variables downloads follow (the CLI's environment). */
  env: ProxyEnv;
  stdout?: ProgressStream;
  stderr?: ProgressStream;
  /** Test seams: another catalog and network settings. */
  catalog?: Catalog | string;
  manager?: Partial<ModelManagerOptions>;
  progressEveryMs?: number;
}

const EXIT = { ok: 0, failed: 1, usage: 2, cancelled: 130 } as const;

export async function runModelsCommand(
  args: string[],
  dataDir: string,
  options: ModelsCommandOptions,
): Promise<number> {
  const out = options.stdout ?? process.stdout;
  const err = options.stderr ?? process.stderr;
  const say = (line = ''): void => void out.write(`${line}\n`);
  const complain = (line: string): void => void err.write(`${line}\n`);
  const [action, ...rest] = args;
  const controller = new AbortController();
  const progress = new ProgressLine(err, options.progressEveryMs);
  const onInterrupt = (): void => controller.abort();
  process.once('SIGINT', onInterrupt);
  try {
    const manager = await createModelManager({
      ...options.manager,
      env: options.env,
      dataDir,
      catalog: options.catalog,
      mirror: options.mirror,
    });
    switch (action) {
      case 'list':
        return await list(manager, say);
      case 'install': {
        if (rest.length === 0)
          return usage(complain, 'Name the model to install, e.g. "models install whisper-base-q5_1".');
        for (const id of rest) {
          const result = await manager.install(id, {
            signal: controller.signal,
            onProgress: (p) => progress.update(p),
          });
          progress.done();
          report(manager, result, say);
        }
        return EXIT.ok;
      }
      case 'remove': {
        if (rest.length !== 1) return usage(complain, 'Name one model to remove.');
        const { removed } = await manager.remove(rest[0]);
        say(
          removed.length > 0
            ? `Removed ${rest[0]} (${removed.length} file${removed.length === 1 ? '' : 's'}).`
            : `${rest[0]} was not installed; nothing to remove.`,
        );
        const dependents = (await manager.list()).models.filter(
          (m) => m.installed && m.entry.requires?.includes(rest[0]),
        );
        for (const { entry } of dependents)
          say(`Note: ${entry.id} needs ${rest[0]} and will not work until it is installed again.`);
        return EXIT.ok;
      }
      case 'verify':
        return await verify(manager, say, complain, controller.signal);
      case 'import': {
        if (rest.length < 1 || rest.length > 2)
          return usage(complain, 'Use "models import <id> <path>" or "models import <file>".');
        const result =
          rest.length === 2
            ? await manager.importModel(rest[0], rest[1], {
                signal: controller.signal,
                onProgress: (p) => progress.update(p),
              })
            : await manager.importFile(rest[0], { signal: controller.signal, onProgress: (p) => progress.update(p) });
        progress.done();
        report(manager, result, say);
        return EXIT.ok;
      }
      default:
        return usage(complain, action ? `Unknown models command "${action}".` : 'Name a models command.');
    }
  } catch (error) {
    progress.done();
    if (hasCode(error, 'CANCELLED')) {
      complain(
        `Cancelled; the partial ${action === 'import' ? 'copy' : 'download'} was deleted and nothing was installed.`,
      );
      return EXIT.cancelled;
    }
    complain(failureText(error, 'Failed: '));
    return EXIT.failed;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
}

function usage(complain: (line: string) => void, problem: string): number {
  complain(`${problem}\n\n${MODELS_USAGE}`);
  return EXIT.usage;
}

function sizeOf(listing: ModelListing): string {
  const exact = listing.entry.files.every((f) => f.size !== null);
  const bytes = entryBytes(listing.entry);
  return bytes === null ? '?' : `${exact ? '' : '~'}${formatBytes(bytes)}`;
}

function statusOf(listing: ModelListing): string {
  switch (listing.status) {
    case 'installed':
      return listing.installed?.files.some((f) => f.checksum === 'recorded')
        ? 'installed (sha256 recorded, no upstream value)'
        : 'installed';
    case 'partial':
      return `partial: ${formatBytes(listing.partialBytes)} downloaded; install again to resume`;
    case 'incomplete':
      return 'files missing: install again';
    case 'unverified':
      return 'files present but not installed here: run "models verify"';
    default:
      return listing.status;
  }
}

async function list(manager: ModelManager, say: (line?: string) => void): Promise<number> {
  const { models, customStt } = await manager.list();
  say(`Models in ${modelsDir(manager.dataDir)}`);
  say();
  const rows = models.map((m) => [m.entry.id, m.entry.kind, m.entry.languages.join(','), sizeOf(m), statusOf(m)]);
  const header = ['ID', 'KIND', 'LANGUAGES', 'SIZE', 'STATUS'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows])
    say(`  ${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ')}`);
  for (const [engine, title] of [
    ['whisper', 'whisper'],
    ['parakeet', 'Parakeet'],
  ] as const) {
    const custom = customStt.filter((model) => (model.engine ?? 'whisper') === engine);
    if (custom.length === 0) continue;
    say();
    say(`Custom ${title} models (not in the catalog):`);
    for (const model of custom) say(`  ${model.name}  ${formatBytes(model.bytes)}`);
  }
  say();
  say('Install with: node dist/cli.js models install <id>');
  return EXIT.ok;
}

function report(manager: ModelManager, result: InstallResult, say: (line: string) => void): void {
  for (const dependency of result.dependencies) report(manager, dependency, say);
  if (result.alreadyInstalled) {
    say(`${result.id} is already installed.`);
    return;
  }
  say(`Installed ${result.id}:`);
  for (const file of result.model.files) {
    const where = targetPath(manager.dataDir, file.target);
    if (file.checksum === 'verified') say(`  ${where} (${formatBytes(file.bytes)}, sha256 verified)`);
    else
      say(
        `  ${where} (${formatBytes(file.bytes)}); no published checksum to verify against, sha256 recorded: ${file.sha256}`,
      );
  }
}

async function verify(
  manager: ModelManager,
  say: (line: string) => void,
  complain: (line: string) => void,
  signal: AbortSignal,
): Promise<number> {
  const reports = await manager.verify({ signal });
  if (reports.length === 0) {
    say('Nothing is installed.');
    return EXIT.ok;
  }
  let damaged = 0;
  for (const { id, status, files } of reports) {
    if (status !== 'damaged') {
      say(`${status === 'ok' ? 'ok      ' : 'adopted '} ${id}`);
      continue;
    }
    damaged++;
    for (const file of files.filter((f) => f.status !== 'ok')) {
      const detail = file.status === 'missing' ? 'is missing' : `has sha256 ${file.actual}, expected ${file.expected}`;
      complain(`DAMAGED  ${id}: ${targetPath(manager.dataDir, file.target)} ${detail}`);
    }
  }
  if (damaged > 0)
    complain(
      `${damaged} model${damaged === 1 ? ' is' : 's are'} damaged: run "models install <id>" to replace ${damaged === 1 ? 'it' : 'them'}.`,
    );
  return damaged > 0 ? EXIT.failed : EXIT.ok;
}
