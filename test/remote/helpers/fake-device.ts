/**
 * A device link spoken by hand over a WebSocket, for tests that need a device to say exactly what they
 * choose (odd characters, a second link on one token) without a whole headless server behind it.
 */
import WebSocket from 'ws';
import type { Voice } from '../../../src/contract/types';
import type { DeviceCapabilities } from '../../../src/link/capabilities';
import type { AssignedJob } from '../../../src/link/protocol';
import { ENGLISH_VOICE } from './scenarios';

export interface FakeDevice {
  readonly ws: WebSocket;
  readonly deviceId: string;
  readonly open: boolean;
  /** Settles with the close code and reason when the relay (or the test) closes the link. */
  readonly closed: Promise<{ code: number; reason: string }>;
  send(message: object): void;
  /** Resolves with the assignment of `jobId` once the relay has sent it. */
  assignment(jobId: string): Promise<AssignedJob>;
  /** Capabilities with one ready voice (ENGLISH_VOICE) and one multilingual whisper model. */
  capabilities(voice?: Partial<Voice>): DeviceCapabilities;
  close(): void;
}

const capabilities = (voice: Partial<Voice> = {}): DeviceCapabilities => ({
  version: 'fake',
  tts: {
    voices: [
      {
        id: ENGLISH_VOICE,
        name: 'English (America)',
        languageCode: 'en-US',
        availability: 'ready',
        access: { scope: 'builtin', canUse: true, license: 'x' },
        ...voice,
      },
    ],
  },
  stt: { models: [{ name: 'ggml-base.bin', englishOnly: false }], diarization: false },
  queueCapacity: 8,
});

/** Connects with `token`, says hello, and resolves on the relay's welcome. */
export function connectFakeDevice(origin: string, token: string): Promise<FakeDevice> {
  const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}/v1/devices/connect`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const assignments = new Map<string, AssignedJob>();
  const waiting = new Map<string, (job: AssignedJob) => void>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('close', (code, reason) =>
      reject(new Error(`The relay closed the link before its welcome: ${code} ${reason.toString()}`)),
    );
    ws.on('open', () =>
      ws.send(JSON.stringify({ type: 'hello', protocol: 1, activeJobs: [], capabilities: capabilities() })),
    );
    ws.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString());
      if (message.type === 'assign') {
        assignments.set(message.job.id, message.job);
        waiting.get(message.job.id)?.(message.job);
      }
      if (message.type !== 'welcome') return;
      resolve({
        ws,
        closed,
        deviceId: message.deviceId,
        get open() {
          return ws.readyState === WebSocket.OPEN;
        },
        send: (m) => ws.send(JSON.stringify(m)),
        assignment: (jobId) => {
          const known = assignments.get(jobId);
          return known ? Promise.resolve(known) : new Promise((done) => waiting.set(jobId, done));
        },
        capabilities,
        close: () => ws.terminate(),
      });
    });
  });
}
