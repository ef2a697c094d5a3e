/**
 * Owns the Local API server inside the extension host: starts it from the settings, restarts it when an
 * address or storage setting changes, stops it on deactivate. Every start, restart and stop runs on one
 * chain, so they never overlap; a restart requested while one is already waiting is folded into it.
 * A restart waits until no job is running (queued jobs stay queued and run on the new server), so
 * changing the port never interrupts work.
 */
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { JobRecord } from '../jobs/types';
import { RUNNING_STATUSES } from '../jobs/types';
import type { ApiKeySource } from '../http/api-key';
import { isAllInterfaces, startLocalServer, type LocalServer } from '../host/local-server';
import { engineConfigFromEnvironment } from '../config/engine-environment';
import { testHooksFromEnvironment } from '../config/test-hooks';
import type { VerifyTestHooks } from '../jobs/verify-admission';
import type { EngineConfig } from '../engine-api/engine-config';
import { describeThrown, type Logger } from '../util/log';
import type { Settings } from './settings';

export type ServerState =
  | { kind: 'starting' }
  | { kind: 'running'; url: string; apiEnabled: boolean; auth: boolean; exposed: boolean }
  | { kind: 'restarting'; waitingForJobs: boolean }
  | { kind: 'failed'; message: string }
  | { kind: 'stopped' };

export interface ServerControllerOptions {
  /** The data directory when the setting is empty: the extension's global storage. */
  defaultDataDir: string;
  engineWorkerPath: string;
  apiKeys: ApiKeySource;
  log: Logger;
}

export class ServerController implements vscode.Disposable {
  private server: LocalServer | undefined;
  private chain: Promise<void> = Promise.resolve();
  private restartQueued: Promise<void> | undefined;
  private stopWaiting = new AbortController();
  private detachJobs: (() => void) | undefined;
  private current: ServerState = { kind: 'stopped' };
  private readonly stateChanged = new vscode.EventEmitter<ServerState>();
  private readonly jobChanged = new vscode.EventEmitter<JobRecord>();
  readonly onDidChangeState = this.stateChanged.event;
  /** Every visible change of every job (editor and API), from whichever server is current. */
  readonly onDidChangeJob = this.jobChanged.event;

  /** The newest settings seen; `settings` is what the current server was started with (plus auth). */
  private latest: Settings;

  constructor(
    private settings: Settings,
    private readonly options: ServerControllerOptions,
  ) {
    this.latest = settings;
  }

  get state(): ServerState {
    return this.current;
  }

  /** The setting (`~` is the home folder; a relative path is taken from the home folder), else global storage. */
  get dataDir(): string {
    const configured = this.settings.dataDirectory;
    if (!configured) return this.options.defaultDataDir;
    return path.resolve(os.homedir(), configured.replace(/^~(?=$|[\\/])/, os.homedir()));
  }

  /** All jobs of the current server, newest first; empty while no server runs. */
  jobs(): JobRecord[] {
    return (this.server?.jobs.list() ?? []).sort((a, b) => b.createdAt - a.createdAt);
  }

  start(): Promise<void> {
    return this.enqueue(() => this.open());
  }

  /**
   * The running server; while it starts (or restarts after its jobs), the next one. Throws when it could
   * not start. A restart waiting for a running job does not hold new work back: that work queues on the
   * current server, and a queued job moves to the new one.
   */
  async ready(): Promise<LocalServer> {
    if (this.server) return this.server;
    await this.chain;
    if (this.server) return this.server;
    const reason = this.current.kind === 'failed' ? this.current.message : 'it is stopped';
    throw new Error(`The Speech Studio server is not running (${reason}).`);
  }

  /** Takes new settings that apply without a restart (auth); the rest wait for `restart`. */
  update(settings: Settings): void {
    // Only auth applies to the running server; everything else it uses takes a restart.
    this.settings = { ...this.settings, localApi: { ...this.settings.localApi, auth: settings.localApi.auth } };
    this.server?.setAuth(settings.localApi.auth);
    if (this.current.kind === 'running')
      this.setState({ ...this.current, auth: settings.localApi.auth, exposed: this.isExposed() });
    this.latest = settings;
  }

  /**
   * Restarts with the latest settings once no job is running (see class comment). A restart asked for
   * while one is waiting to start joins it.
   */
  restart(settings: Settings = this.latest): Promise<void> {
    this.latest = settings;
    this.restartQueued ??= this.enqueue(async () => {
      const server = this.server;
      if (server) {
        this.setState({ kind: 'restarting', waitingForJobs: false });
        await this.untilNoJobRuns(server);
        await this.close(server);
      }
      this.restartQueued = undefined; // from here on, a new request needs a restart of its own
      this.settings = this.latest;
      await this.open();
    });
    return this.restartQueued;
  }

  /** Stops the server: running jobs become interrupted and the engine process ends. Waiting restarts give up. */
  stop(): Promise<void> {
    this.stopWaiting.abort();
    return this.enqueue(async () => {
      if (this.server) await this.close(this.server);
      this.setState({ kind: 'stopped' });
    });
  }

  async dispose(): Promise<void> {
    await this.stop();
    this.stateChanged.dispose();
    this.jobChanged.dispose();
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.chain.then(step).catch((error: unknown) => {
      this.options.log.error(`Server: ${describeThrown(error)}`);
    });
    this.chain = next;
    return next;
  }

  private async open(): Promise<void> {
    const { localApi } = this.settings;
    this.stopWaiting = new AbortController();
    this.setState(
      this.current.kind === 'restarting' ? { kind: 'restarting', waitingForJobs: false } : { kind: 'starting' },
    );
    const host = localApi.enabled ? localApi.host : '127.0.0.1';
    try {
      const server = await startLocalServer({
        host,
        // Switched off, the server still runs the editor's jobs, on a loopback port the OS picks, and
        // answers every HTTP request 503 LOCAL_API_DISABLED.
        port: localApi.enabled ? localApi.port : 0,
        auth: localApi.auth,
        dataDir: this.dataDir,
        log: this.options.log,
        apiKeys: this.options.apiKeys,
        queueCapacity: localApi.queueCapacity,
        engineWorkerPath: this.options.engineWorkerPath,
        // The editor starts its engine with its first job, as before the headless server kept one warm: the
        // UI tests of the installed extension went red with a warm engine, and why is not yet known.
        warmEngine: false,
        preferredSttModel: this.settings.sttDefaultModel || undefined,
        engineConfig: this.engineConfiguration(),
        // An MCP client of the editor's server reads and writes files only in the open workspace.
        allowedFolders: () =>
          (vscode.workspace.workspaceFolders ?? [])
            .filter((folder) => folder.uri.scheme === 'file')
            .map((folder) => folder.uri.fsPath),
      });
      server.setEnabled(localApi.enabled);
      const forward = (job: JobRecord): void => this.jobChanged.fire(job);
      server.jobs.on('change', forward);
      this.detachJobs = () => server.jobs.off('change', forward);
      this.server = server;
      this.options.log.info(
        localApi.enabled
          ? `Local API listening on ${server.url}`
          : 'The Local API is switched off; editor commands still run.',
      );
      this.setState({
        kind: 'running',
        url: server.url,
        apiEnabled: localApi.enabled,
        auth: localApi.auth,
        exposed: this.isExposed(),
      });
    } catch (error) {
      const inUse = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
      const message = inUse ? `port ${localApi.port} on ${host} is already in use` : describeThrown(error);
      this.options.log.error(`The Local API could not start: ${message}`);
      this.setState({ kind: 'failed', message });
    }
  }

  private async close(server: LocalServer): Promise<void> {
    this.server = undefined;
    await server.close();
    this.detachJobs?.();
    this.detachJobs = undefined;
  }

  /** Resolves when no job is loading or processing, checked on each job change; a stop ends the wait. */
  private untilNoJobRuns(server: LocalServer): Promise<void> {
    const running = (): boolean => server.jobs.list().some((job) => RUNNING_STATUSES.has(job.status));
    if (!running()) return Promise.resolve();
    this.setState({ kind: 'restarting', waitingForJobs: true });
    this.options.log.info('Settings changed: the server restarts when the running job ends.');
    const signal = this.stopWaiting.signal;
    return new Promise((resolve) => {
      const check = (): void => {
        if (running() && !signal.aborted) return;
        server.jobs.off('change', check);
        signal.removeEventListener('abort', check);
        resolve();
      };
      server.jobs.on('change', check);
      signal.addEventListener('abort', check);
    });
  }

  private isExposed(): boolean {
    const { localApi } = this.settings;
    return localApi.enabled && isAllInterfaces(localApi.host) && !localApi.auth;
  }

  /** The engine's configuration: the environment VS Code started with, and the ffmpeg setting over it. */
  engineConfiguration(): EngineConfig {
    return engineConfigFromEnvironment(process.env, { ffmpeg: this.settings.ffmpegPath || undefined });
  }

  /** The test hooks the environment switches on now (tests set them while the server runs; never set in use). */
  testHooks(): VerifyTestHooks {
    return testHooksFromEnvironment(process.env);
  }

  private setState(state: ServerState): void {
    this.current = state;
    this.stateChanged.fire(state);
  }
}
