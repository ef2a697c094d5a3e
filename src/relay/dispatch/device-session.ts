import { randomUUID } from 'node:crypto';
import type WebSocket from 'ws';
import type { TtsRequest } from '../../contract/types';
import { describeThrown } from '../../util/log';
import { saveSpeeds } from '../data/device-speeds';
import { recordHeartbeat, type Device } from '../data/devices';
import { claimNextJob, lockQueuedJob, type JobRow } from '../data/jobs';
import { parseCapabilities } from '../../link/capabilities';
import { parseSpeeds } from '../../link/speeds';
import { deviceConnected, deviceLost, reroute, type PresenceDeps } from './presence';
import {
  LINK_CLOSE,
  parseDeviceMessage,
  PROTOCOL_VERSION,
  type AssignedJob,
  type DeviceMessage,
  type RelayMessage,
} from '../../link/protocol';

const HELLO_TIMEOUT_MS = 10_000;

export interface SessionHost extends PresenceDeps {
  heartbeatMs: number;
  register(session: DeviceSession): void;
  unregister(session: DeviceSession): void;
}

export function assignmentOf(job: JobRow): AssignedJob {
  const outputPath = `/v1/device/jobs/${job.id}/output`;
  const caller = job.key_name == null ? {} : { caller: { keyName: job.key_name } };
  if (job.kind === 'tts') {
    return {
      id: job.id,
      kind: 'tts',
      name: job.name,
      outputPath,
      ...caller,
      tts: { request: { ...(job.request as unknown as TtsRequest), text: job.text ?? '' } },
    };
  }
  const { options, diarizationAsked } = job.request as unknown as NonNullable<AssignedJob['stt']>;
  return {
    id: job.id,
    kind: 'stt',
    name: job.name,
    outputPath,
    ...caller,
    stt: {
      options,
      diarizationAsked,
      originalName: job.input_name ?? 'upload',
      inputBytes: job.input_bytes,
      inputPath: `/v1/device/jobs/${job.id}/input`,
    },
  };
}

/** One device's link on this instance: its hello, heart-beats, job updates, and the jobs sent to it. */
export class DeviceSession {
  readonly sessionId = randomUUID();
  private ready = false;
  private closed = false;
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  private superseded = false;
  /** Jobs sent over this link that the device has not finished: never more than it said it takes. */
  private readonly sent = new Set<string>();
  private capacity = 0;
  private endedResolve!: () => void;
  /** Settles once the link has closed and its jobs have been handled. */
  readonly ended = new Promise<void>((resolve) => (this.endedResolve = resolve));

  constructor(
    private readonly ws: WebSocket,
    readonly device: Device,
    private readonly host: SessionHost,
    readonly address = 'unknown address',
  ) {
    const helloTimer = setTimeout(() => this.end(LINK_CLOSE.noHello), HELLO_TIMEOUT_MS);
    let chain = Promise.resolve();
    ws.on('message', (data, isBinary) => {
      const message = isBinary ? undefined : parseDeviceMessage((data as Buffer).toString());
      if (!message) return this.end(LINK_CLOSE.malformed);
      // One message at a time, in order: an update must not overtake the one before it.
      chain = chain
        .then(() => this.handle(message, helloTimer))
        .catch((error) => {
          host.log.warn(`Device ${device.id}: ${describeThrown(error)}`);
        });
    });
    ws.on('close', () => {
      clearTimeout(helloTimer);
      this.closed = true;
      host.unregister(this);
      chain = chain
        .then(async () => {
          await this.pumping;
          if (this.ready) await deviceLost(host, device.id, this.sessionId);
        })
        .catch((error) => host.log.warn(`Device ${device.id} left; cleaning up failed: ${describeThrown(error)}`))
        .finally(() => this.endedResolve());
    });
    ws.on('error', () => undefined);
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  send(message: RelayMessage): void {
    if (!this.closed) this.ws.send(JSON.stringify(message));
  }

  close(code = 1000, reason = ''): void {
    if (!this.closed) this.ws.close(code, reason);
  }

  end(how: { code: number; reason: string }): void {
    this.close(how.code, how.reason);
  }

  /** A newer link of the same device token replaced this one: the device is told, and both ends log it. */
  supersede(by: string): void {
    if (this.closed || this.superseded) return;
    this.superseded = true;
    this.host.log.warn(
      `Device ${this.device.id} (${this.device.name}): ${by} replaced its link from ${this.address}. If two devices share this ` +
        'device token they push each other off the relay: the older one is told to stop. Enrol each device with its own token.',
    );
    this.end(LINK_CLOSE.superseded);
  }

  /** Drops the TCP connection at once (shutdown, superseded link). */
  terminate(): void {
    this.ws.terminate();
  }

  private async handle(message: DeviceMessage, helloTimer: NodeJS.Timeout): Promise<void> {
    if (this.closed) return;
    if (!this.ready) {
      if (message.type !== 'hello' || message.protocol !== PROTOCOL_VERSION) return this.end(LINK_CLOSE.badProtocol);
      const capabilities = parseCapabilities(message.capabilities);
      if (!capabilities) return this.end({ code: LINK_CLOSE.malformed.code, reason: 'malformed capabilities' });
      clearTimeout(helloTimer);
      this.capacity = capabilities.queueCapacity;
      for (const id of message.activeJobs) this.sent.add(id);
      await deviceConnected(this.host, this.device.id, this.sessionId, capabilities, message.activeJobs);
      await this.saveSpeeds(message.speeds);
      this.ready = true;
      this.host.register(this);
      this.send({
        type: 'welcome',
        deviceId: this.device.id,
        sessionId: this.sessionId,
        heartbeatMs: this.host.heartbeatMs,
        protocol: PROTOCOL_VERSION,
      });
      this.pump();
      return;
    }
    switch (message.type) {
      case 'heartbeat':
        return this.heartbeat(message.capabilities, message.speeds);
      case 'update': {
        const { jobId, status, progress, phase, backend, error, result } = message;
        await this.host.lifecycle.update(
          jobId,
          { status, progress, phase, backend, error, result },
          { deviceId: this.device.id },
        );
        if (status !== 'queued' && status !== 'loading_model' && status !== 'processing') {
          this.sent.delete(jobId);
          this.pump();
        }
        return;
      }
      case 'reject':
        return this.rejected(message.jobId, message.reason);
      default:
        return this.end({ code: LINK_CLOSE.badProtocol.code, reason: 'unexpected message' });
    }
  }

  private async heartbeat(capabilities: unknown, speeds: unknown): Promise<void> {
    const parsed = capabilities === undefined ? undefined : parseCapabilities(capabilities);
    if (parsed) this.capacity = parsed.queueCapacity;
    const beat = await recordHeartbeat(this.host.db, this.device.id, this.sessionId, parsed ?? null);
    // Replaced by a link on another instance whose notice did not arrive: the same ending as the notice's.
    if (beat.replaced) this.supersede('a newer link on another relay instance');
    else if (!beat.current || beat.revoked) this.end(LINK_CLOSE.ended);
    else {
      await this.saveSpeeds(speeds);
      if (parsed) this.pump();
    }
  }

  /** Keeps the speeds the device measured, for routing; a missing or malformed report leaves the last one. */
  private async saveSpeeds(speeds: unknown): Promise<void> {
    const parsed = speeds === undefined ? undefined : parseSpeeds(speeds);
    if (parsed === undefined) {
      if (speeds !== undefined)
        this.host.log.warn(`Device ${this.device.id} sent speeds of the wrong shape; they were ignored.`);
      return;
    }
    // A figure that could not be stored only makes routing fall back to the queue length: never end the link over it.
    await this.host.db
      .transaction((tx) => saveSpeeds(tx, this.device.id, parsed))
      .catch((error) =>
        this.host.log.warn(`Device ${this.device.id}: its speeds could not be stored: ${describeThrown(error)}`),
      );
  }

  private async rejected(jobId: string, reason: string): Promise<void> {
    this.sent.delete(jobId);
    this.host.log.info(`Device ${this.device.id} declined job ${jobId}: ${reason}`);
    const moved = await this.host.db.transaction(async (tx) => {
      const job = await lockQueuedJob(tx, jobId, this.device.id);
      if (!job) return true;
      if (job.attempts >= 3 || job.pinned) return false;
      return (await reroute(tx, job, this.host.offlineAfterMs, this.device.id)) !== this.device.id;
    });
    if (!moved)
      await this.host.lifecycle.update(jobId, {
        status: 'failed',
        error: `The device could not run the job: ${reason}`,
      });
  }

  /**
   * Sends the jobs waiting for this device, one claim at a time, while it has room (the rest wait in the
   * relay's queue); a call while busy makes it look once more.
   */
  pump(): void {
    if (!this.ready || this.closed) return;
    this.pumpAgain = true;
    if (this.pumping) return;
    this.pumping = this.drain()
      .catch((error) => this.host.log.warn(`Sending jobs to ${this.device.id} failed: ${describeThrown(error)}`))
      .finally(() => {
        this.pumping = undefined;
        // A wake-up that came after the last look but before this line must not be lost.
        if (this.pumpAgain) this.pump();
      });
  }

  private async drain(): Promise<void> {
    while (this.pumpAgain && !this.closed) {
      this.pumpAgain = false;
      while (this.sent.size < this.capacity) {
        if (this.closed) return;
        const job = await claimNextJob(this.host.db, this.device.id, this.sessionId);
        if (!job) break;
        this.sent.add(job.id);
        this.send({ type: 'assign', job: assignmentOf(job) });
      }
    }
  }
}
