/**
 * What the outside probes share: a sandbox whose files outside the server's own folders are fingerprinted
 * before and after, a per-request deadline that turns a hang into a failure, a tally per probe class
 * (requests, 5xx answers, hangs, writes outside) that each file asserts and prints, and the set-up that
 * every probe file starts with (useProbeSandbox, useProbeServer) and the case it ends with (probeEnds).
 */
import assert from 'node:assert/strict';
import { lstat, mkdir, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, it } from 'node:test';
import type { LocalServerOptions } from '../../src/host/local-server';
import { startTestServer, type TestServer } from '../helpers/server';
import { tempDir } from '../helpers/temp';

/** How long any one probe may go unanswered before it counts as a hang (the slowest honest answer is far quicker). */
export const PROBE_DEADLINE_MS = 20_000;

export class Hang extends Error {}

/** `work`, failing with Hang when it has not settled within `ms`. */
export async function withDeadline<T>(what: string, work: Promise<T>, ms = PROBE_DEADLINE_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Hang(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** One probe class's counts; `record` is called once per request or call with what it answered. */
export class ProbeTally {
  requests = 0;
  serverErrors: string[] = [];
  hangs: string[] = [];
  constructor(readonly name: string) {}

  /** Counts one answered request; `status` is an HTTP status, or 0 for a non-HTTP exchange that answered. */
  record(what: string, status: number): void {
    this.requests += 1;
    if (status >= 500) this.serverErrors.push(`${what}: ${status}`);
  }

  /** Runs one probe under the deadline; a Hang is counted (and rethrown so the test fails there). */
  async probe<T>(what: string, work: () => Promise<T>, statusOf: (answer: T) => number, ms?: number): Promise<T> {
    try {
      const answer = await withDeadline(what, work(), ms);
      this.record(what, statusOf(answer));
      return answer;
    } catch (error) {
      if (error instanceof Hang) {
        this.requests += 1;
        this.hangs.push(what);
      }
      throw error;
    }
  }

  /** Prints the line docs/probes.md quotes, then asserts 0 × 5xx, 0 hangs and no change outside (each listed). */
  finish(outsideChanges: readonly string[]): void {
    console.log(
      `# probe ${this.name}: ${this.requests} requests, ${this.serverErrors.length} x 5xx, ${this.hangs.length} hangs, ${outsideChanges.length} outside writes`,
    );
    assert.deepEqual(this.serverErrors, [], `${this.name}: answers with 5xx`);
    assert.deepEqual(this.hangs, [], `${this.name}: requests that never answered`);
    assert.deepEqual(outsideChanges, [], `${this.name}: writes outside the sandbox's own folders`);
  }
}

export interface Sandbox {
  root: string;
  /** The server's data directory. */
  data: string;
  /** A folder the probed door may write to (workspace, output folder). */
  work: string;
  /** Bait: files and links a hostile input points at, which must stay as they were. */
  outside: string;
  /** Entries outside `data` and `work` that differ from when the sandbox was made. */
  changesOutside(): Promise<string[]>;
  dispose(): Promise<void>;
}

async function fingerprint(root: string, skip: Set<string>): Promise<Map<string, string>> {
  const prints = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const full = path.join(dir, name);
      if (skip.has(full)) continue;
      const info = await lstat(full);
      const kind = info.isSymbolicLink()
        ? `link->${await readlink(full)}`
        : info.isDirectory()
          ? 'dir'
          : `file:${info.size}:${info.mtimeMs}`;
      prints.set(path.relative(root, full), kind);
      if (info.isDirectory()) await walk(full);
    }
  };
  await walk(root);
  return prints;
}

/**
 * A sandbox: `data` and `work` for the server, and `outside` holding a secret file, a link to it, a dangling
 * link, and a folder, for hostile paths to aim at. The project folder's top level is watched too.
 */
export async function makeSandbox(): Promise<Sandbox> {
  const root = await tempDir('speech-studio-probe-');
  const data = path.join(root, 'data');
  const work = path.join(root, 'work');
  const outside = path.join(root, 'outside');
  await Promise.all([mkdir(data), mkdir(work), mkdir(path.join(outside, 'folder'), { recursive: true })]);
  await writeFile(path.join(outside, 'secret.txt'), 'do not touch\n');
  await symlink(path.join(outside, 'secret.txt'), path.join(outside, 'link-to-secret.txt'));
  await symlink(path.join(outside, 'created-through-link.wav'), path.join(outside, 'dangling.wav'));
  // Links from inside the work folder to the bait: a door that follows them writes outside.
  await symlink(path.join(outside, 'secret.txt'), path.join(work, 'secret-link.mp3'));
  await symlink(path.join(outside, 'made-by-link.srt'), path.join(work, 'dangling-link.srt'));
  await symlink(path.join(outside, 'folder'), path.join(work, 'folder-link'));
  const skip = new Set([data, work]);
  const project = path.resolve(__dirname, '..', '..');
  const watched = async () => {
    const prints = await fingerprint(root, skip);
    for (const name of await readdir(project)) prints.set(`<project>/${name}`, 'present');
    return prints;
  };
  const before = await watched();
  return {
    root,
    data,
    work,
    outside,
    changesOutside: async () => {
      const after = await watched();
      const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
        (key) => before.get(key) !== after.get(key),
      );
      return changed.map((key) => `${key}: ${before.get(key) ?? 'absent'} -> ${after.get(key) ?? 'absent'}`);
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

/** The bait paths hostile inputs aim at, absolute. */
export function baitPaths(sandbox: Sandbox): Record<string, string> {
  return {
    secret: path.join(sandbox.outside, 'secret.txt'),
    linkToSecret: path.join(sandbox.outside, 'link-to-secret.txt'),
    dangling: path.join(sandbox.outside, 'dangling.wav'),
    folder: path.join(sandbox.outside, 'folder'),
    workSecretLink: path.join(sandbox.work, 'secret-link.mp3'),
    workDanglingLink: path.join(sandbox.work, 'dangling-link.srt'),
    throughFolderLink: path.join(sandbox.work, 'folder-link', 'out.mp3'),
    escapeByDots: path.join(sandbox.work, '..', 'outside', 'escaped.mp3'),
  };
}

/** A probe file's sandbox and tally, read inside its tests and hooks. */
export interface ProbeRun {
  readonly box: Sandbox;
  readonly tally: ProbeTally;
}

/** A probe file's sandbox, tally and Local API on a free loopback port, its data directory in the sandbox. */
export interface ProbeServer extends ProbeRun {
  readonly t: TestServer;
}

/**
 * In a `describe`: a fresh sandbox before its tests (then `prepare`, e.g. installing a model in `box.data`),
 * and after them `cleanUp` (e.g. killing a server the tests started), then the sandbox removed; the tally is
 * named `name`. One after hook does both, so nothing still runs in the sandbox when it goes.
 */
export function useProbeSandbox(
  name: string,
  hooks: { prepare?: (box: Sandbox) => Promise<void>; cleanUp?: () => unknown } = {},
): ProbeRun {
  const tally = new ProbeTally(name);
  let box: Sandbox | undefined;
  before(async () => {
    box = await makeSandbox();
    await hooks.prepare?.(box);
  });
  after(async () => {
    try {
      await hooks.cleanUp?.();
    } finally {
      await box?.dispose();
    }
  });
  return {
    tally,
    get box() {
      if (!box)
        throw new Error(
          "useProbeSandbox(): the sandbox is made in the suite's before hook; read it inside a test or a hook",
        );
      return box;
    },
  };
}

/**
 * useProbeSandbox plus a real Local API on a free loopback port whose data directory is the sandbox's
 * `data`; `options` may depend on the sandbox (e.g. the folders a door may write to), `prepare` runs once the
 * server listens (e.g. installing a model into `t.dataDir`). The server stops before the sandbox goes.
 */
export function useProbeServer(
  name: string,
  options: (box: Sandbox) => Partial<LocalServerOptions> = () => ({}),
  prepare?: (t: TestServer, box: Sandbox) => Promise<void>,
): ProbeServer {
  let server: TestServer | undefined;
  const run = useProbeSandbox(name, {
    prepare: async (box) => {
      server = await startTestServer({ ...options(box), dataDir: box.data });
      await prepare?.(server, box);
    },
    cleanUp: () => server?.stop(),
  });
  return {
    get box() {
      return run.box;
    },
    tally: run.tally,
    get t() {
      if (!server)
        throw new Error(
          "useProbeServer(): the server starts in the suite's before hook; read it inside a test or a hook",
        );
      return server;
    },
  };
}

/** The case every probe file ends with: its tally's line, 0 × 5xx, 0 hangs, nothing written outside. */
export function probeEnds(run: ProbeRun, title: string): void {
  it(title, async () => {
    run.tally.finish(await run.box.changesOutside());
  });
}
