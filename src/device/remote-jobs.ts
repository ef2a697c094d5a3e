import type { JobResult } from '../contract/types';
import path from 'node:path';
import { compileValidators, type Validators } from '../contract/validation';
import { admitStt, admitTts, installedSttModels } from '../jobs/admission';
import type { JobService } from '../jobs/job-service';
import { isActive, type JobRecord } from '../jobs/types';
import { outputMediaType, storedInputName } from '../contract/media-types';
import { describeThrown, type Logger } from '../util/log';
import type { VoiceLibrary } from '../voices/library';
import type { AssignedJob, DeviceMessage } from '../link/protocol';
import { downloadInput, uploadOutput } from './transfer';

const PROGRESS_INTERVAL_MS = 250;

export interface RunnerDeps {
  jobs: JobService;
  voices: VoiceLibrary;
  dataDir: string;
  origin: URL;
  token: string;
  log: Logger;
  queueCapacity: number;
  send(message: DeviceMessage): void;
  preferredSttModel?: () => string | undefined;
}

/** The caller's key name as the relay sent it, bounded: it is shown, never trusted for anything else. */
function callerOf(assignment: AssignedJob): { remoteKeyName?: string } {
  const name = assignment.caller?.keyName;
  return typeof name === 'string' && name.trim() !== '' ? { remoteKeyName: name.trim().slice(0, 200) } : {};
}

/** A job that cannot run here, with the reason for the relay (it tries another device). */
class Declined extends Error {}

interface Tracked {
  relayId: string;
  localId: string;
  assignment: AssignedJob;
  lastSentAt: number;
  lastStatus: string;
}

/**
 * Runs relay jobs through this device's own JobService with origin 'remote' (so the Local API never sees
 * them, and the editor shows them as remote), and reports their changes back over the link.
 */
export class RemoteJobRunner {
  private readonly byLocal = new Map<string, Tracked>();
  private readonly byRelay = new Map<string, Tracked>();
  private readonly onChange = (record: JobRecord): void => void this.changed(record);
  private readonly validators: Validators = compileValidators();

  constructor(private readonly deps: RunnerDeps) {
    deps.jobs.on('change', this.onChange);
    // Remote jobs still queued from before a restart belong to no link any more: the relay has already
    // interrupted or re-routed them, so they must not run here unseen.
    for (const job of deps.jobs.list()) {
      if (job.origin === 'remote' && isActive(job.status)) void deps.jobs.cancel(job.id).catch(() => undefined);
    }
  }

  /** Relay ids of the jobs this device holds (queued or running). */
  active(): string[] {
    return [...this.byRelay.keys()];
  }

  async start(assignment: AssignedJob): Promise<void> {
    if (this.byRelay.has(assignment.id)) return;
    try {
      if (this.byRelay.size >= this.deps.queueCapacity) throw new Declined('its queue is full');
      const tracked: Tracked = { relayId: assignment.id, localId: '', assignment, lastSentAt: 0, lastStatus: '' };
      this.byRelay.set(assignment.id, tracked);
      const record = await this.create(assignment).catch((error) => {
        this.byRelay.delete(assignment.id);
        throw error;
      });
      tracked.localId = record.id;
      this.byLocal.set(record.id, tracked);
      this.changed(this.deps.jobs.get(record.id) ?? record);
    } catch (error) {
      this.deps.send({ type: 'reject', jobId: assignment.id, reason: describeThrown(error) });
    }
  }

  async cancel(relayId: string): Promise<void> {
    const tracked = this.byRelay.get(relayId);
    const job = tracked?.localId ? this.deps.jobs.get(tracked.localId) : undefined;
    if (job && isActive(job.status)) await this.deps.jobs.cancel(job.id).catch(() => undefined);
  }

  /** The link dropped: the relay interrupts or re-routes these jobs, so they stop here too. */
  async cancelAll(): Promise<void> {
    const ids = [...this.byRelay.keys()];
    this.byRelay.clear();
    const locals = [...this.byLocal.keys()];
    this.byLocal.clear();
    for (const id of locals) {
      const job = this.deps.jobs.get(id);
      if (job && isActive(job.status)) await this.deps.jobs.cancel(id).catch(() => undefined);
    }
    if (ids.length > 0) this.deps.log.info(`Relay link lost: stopped ${ids.length} remote job(s).`);
  }

  dispose(): void {
    this.deps.jobs.off('change', this.onChange);
  }

  /** Admits the job here by the same rules as the Local API; a refusal's message goes back as the reason. */
  private async create(assignment: AssignedJob): Promise<JobRecord> {
    const { jobs } = this.deps;
    const caller = callerOf(assignment);
    if (assignment.kind === 'tts' && assignment.tts) {
      return jobs.createTtsJob({
        origin: 'remote',
        ...caller,
        ...admitTts(this.validators, assignment.tts.request, this.deps.voices),
      });
    }
    if (assignment.kind !== 'stt' || !assignment.stt) throw new Declined(`unknown job kind ${assignment.kind}`);
    const { options: asked, diarizationAsked, originalName, inputPath } = assignment.stt;
    const { options, model } = admitStt(
      { options: asked, diarizationAsked },
      await installedSttModels(this.deps.dataDir),
      this.deps.preferredSttModel?.(),
    );
    return jobs.createSttJobWith('remote', async (_id, dir) => {
      const inputFile = storedInputName(originalName);
      const bytes = await downloadInput(this.deps.origin, inputPath, this.deps.token, path.join(dir, inputFile));
      return { options, inputFile, originalName, bytes, modelPath: model.path, ...caller };
    });
  }

  private changed(record: JobRecord): void {
    const tracked = this.byLocal.get(record.id);
    if (!tracked) return;
    const now = Date.now();
    const statusChanged = record.status !== tracked.lastStatus;
    if (!statusChanged && now - tracked.lastSentAt < PROGRESS_INTERVAL_MS) return;
    tracked.lastStatus = record.status;
    tracked.lastSentAt = now;
    if (record.status === 'succeeded') {
      void this.deliver(tracked, record);
      return;
    }
    if (!isActive(record.status)) this.forget(tracked);
    const { status, progress, phase, backend, error } = record;
    this.deps.send({ type: 'update', jobId: tracked.relayId, status, progress, phase, backend, error });
  }

  /** Pushes the output, then reports success: the relay never shows a succeeded job without its file. */
  private async deliver(tracked: Tracked, record: JobRecord): Promise<void> {
    this.forget(tracked);
    const { status, progress, phase, backend } = record;
    // A remote job is tts or stt (the relay's seed kinds), never a book.
    const result = record.result as JobResult | null;
    try {
      if (!record.outputFile) throw new Error('the job succeeded without an output file');
      const format = record.input.kind === 'tts' ? record.input.options.outputFormat : 'json';
      const contentType = outputMediaType(format);
      await uploadOutput(
        this.deps.origin,
        tracked.assignment.outputPath,
        this.deps.token,
        this.deps.jobs.files.file(record.id, record.outputFile),
        contentType,
      );
      this.deps.send({ type: 'update', jobId: tracked.relayId, status, progress, phase, backend, result, error: null });
    } catch (error) {
      this.deps.log.warn(`Remote job ${tracked.relayId}: ${describeThrown(error)}`);
      this.deps.send({
        type: 'update',
        jobId: tracked.relayId,
        status: 'failed',
        progress,
        phase,
        backend,
        error: `The device could not return the output: ${describeThrown(error)}`,
      });
    }
  }

  private forget(tracked: Tracked): void {
    this.byRelay.delete(tracked.relayId);
    this.byLocal.delete(tracked.localId);
  }
}
