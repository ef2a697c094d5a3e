/**
 * The device link: one WebSocket per device, opened by the device (so devices behind NAT work) at
 * `GET /v1/devices/connect` with `Authorization: Bearer <device token>`. JSON text frames, one message
 * each. Files never travel over it: the device pulls inputs and pushes outputs over HTTP
 * (`/v1/device/jobs/{id}/input|output`), streamed on both sides.
 *
 *   device → relay   hello (first), heartbeat, update (status/progress of a job), reject (cannot run it)
 *                    hello and heartbeat may carry `speeds` (measured real-time factors); a relay that does
 *                    not know the field ignores it, and a device that does not send it is routed as before
 *   relay → device   welcome (after hello), assign (a job to run), cancel
 *   close codes      LINK_CLOSE below
 */
import type { JobResult, SttOptions, TtsRequest } from '../contract/types';
import type { JobStatus } from '../contract/openapi';
import type { DeviceCapabilities } from './capabilities';
import type { SpeedReport } from './speeds';

export const DEVICE_LINK_PATH = '/v1/devices/connect';
export const PROTOCOL_VERSION = 1;

/**
 * The WebSocket close codes the relay ends a link with, and the reason text it sends. A device reconnects
 * after any of them with backoff, except `superseded`: then another link with the same device token (most
 * likely a second device given the same token) has replaced this one, and reconnecting would only replace
 * that one in turn, each time interrupting the other's jobs. The newest link wins; the older one stops.
 */
export const LINK_CLOSE = {
  noHello: { code: 4000, reason: 'no hello' },
  badProtocol: { code: 4001, reason: 'expected hello, protocol 1' },
  malformed: { code: 4002, reason: 'malformed message' },
  ended: { code: 4003, reason: 'session ended or device revoked' },
  superseded: { code: 4004, reason: 'superseded by a newer link with the same device token' },
} as const;

export interface AssignedJob {
  id: string;
  kind: 'tts' | 'stt';
  name: string;
  tts?: { request: TtsRequest };
  stt?: { options: SttOptions; diarizationAsked: boolean; originalName: string; inputBytes: number; inputPath: string };
  /** Where the device PUTs the audio (TTS) or transcript.json (STT), relative to the relay's origin. */
  outputPath: string;
  /** Who asked: the name of the relay API key that created the job (shown on the device, e.g. in VS Code's Jobs view). */
  caller?: { keyName: string };
}

export type RelayMessage =
  | { type: 'welcome'; deviceId: string; sessionId: string; heartbeatMs: number; protocol: number }
  | { type: 'assign'; job: AssignedJob }
  | { type: 'cancel'; jobId: string };

export type DeviceMessage =
  | { type: 'hello'; protocol: number; capabilities: DeviceCapabilities; activeJobs: string[]; speeds?: SpeedReport[] }
  | { type: 'heartbeat'; capabilities?: DeviceCapabilities; speeds?: SpeedReport[] }
  | {
      type: 'update';
      jobId: string;
      status: JobStatus;
      progress: number;
      phase: string | null;
      backend?: string | null;
      error?: string | null;
      result?: JobResult | null;
    }
  | { type: 'reject'; jobId: string; reason: string };

const STATUSES = new Set(['queued', 'loading_model', 'processing', 'succeeded', 'failed', 'cancelled', 'interrupted']);
const isString = (v: unknown, max = 200): v is string => typeof v === 'string' && v.length <= max;

/** `value` with every U+0000 in its strings and keys replaced by U+FFFD, the replacement character. */
function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('\u0000', '\uFFFD');
  if (Array.isArray(value)) return value.map(withoutNul);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key.replaceAll('\u0000', '\uFFFD'), withoutNul(item)]),
  );
}

/** Parses one frame from a device; undefined for anything malformed (the link is then closed). */
export function parseDeviceMessage(text: string): DeviceMessage | undefined {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  // JSON carries NUL only escaped; the relay stores what devices say in PostgreSQL, which cannot hold it.
  if (text.includes('\\u0000')) value = withoutNul(value) as Record<string, unknown>;
  if (!value || typeof value !== 'object') return undefined;
  switch (value.type) {
    case 'hello':
      return Array.isArray(value.activeJobs) && value.activeJobs.every((id) => isString(id, 64)) && value.capabilities
        ? (value as unknown as DeviceMessage)
        : undefined;
    case 'heartbeat':
      return value as unknown as DeviceMessage;
    case 'update':
      return isString(value.jobId, 64) &&
        STATUSES.has(value.status as string) &&
        typeof value.progress === 'number' &&
        (value.phase === null || isString(value.phase, 64)) &&
        (value.error === undefined || value.error === null || isString(value.error, 4000))
        ? (value as unknown as DeviceMessage)
        : undefined;
    case 'reject':
      return isString(value.jobId, 64) && isString(value.reason, 4000)
        ? (value as unknown as DeviceMessage)
        : undefined;
    default:
      return undefined;
  }
}

/** What the relay's portal and `relay.js devices enrol` hand out. */
export const DEVICE_TOKEN_FORMAT = /^ssd_[A-Za-z0-9]{40}$/;

/**
 * `refused`: the relay turned the link down (a wrong token, a host name it does not answer to); the client
 * keeps retrying at the slowest pace, in case the device is enrolled again. `stopped`: closed, or replaced by
 * a newer link with the same token. `problem` says why for both.
 */
export type DeviceLinkState = 'connecting' | 'connected' | 'disconnected' | 'refused' | 'stopped';
