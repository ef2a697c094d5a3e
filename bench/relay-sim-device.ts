/**
 * A simulated device for the relay benchmark: it speaks the device protocol (hello, assignments, updates,
 * output upload) but runs no engine, so the relay's own cost is what gets measured.
 */
import http from 'node:http';
import WebSocket from 'ws';
import type { Voice } from '../src/contract/types';
import { PROTOCOL_VERSION, type RelayMessage } from '../src/link/protocol';

/** A valid 44-byte WAV header with no samples: the smallest output a job can return. */
const EMPTY_WAV = (() => {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(24_000, 24);
  header.writeUInt32LE(48_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  return header;
})();

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function put(url: string, token: string, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'PUT',
      agent,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'audio/wav', 'Content-Length': body.length },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface SimulatedDevice {
  completed: number;
  errors: string[];
  close(): void;
}

export function startSimulatedDevice(origin: string, token: string, voices: Voice[]): Promise<SimulatedDevice> {
  const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}/v1/devices/connect`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const device: SimulatedDevice = { completed: 0, errors: [], close: () => ws.close() };
  const send = (message: object) => ws.send(JSON.stringify(message));
  return new Promise((resolve, reject) => {
    ws.on('error', reject);
    ws.on('open', () =>
      send({
        type: 'hello',
        protocol: PROTOCOL_VERSION,
        activeJobs: [],
        capabilities: {
          version: 'simulated',
          tts: { voices },
          stt: { models: [], diarization: false },
          queueCapacity: 100_000,
        },
      }),
    );
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- a failure ends the simulation with its stack, as it should
    ws.on('message', async (data) => {
      const message = JSON.parse((data as Buffer).toString()) as RelayMessage;
      if (message.type === 'welcome') resolve(device);
      if (message.type !== 'assign') return;
      const jobId = message.job.id;
      send({ type: 'update', jobId, status: 'loading_model', progress: 0, phase: 'loading_model' });
      const status = await put(`${origin}${message.job.outputPath}`, token, EMPTY_WAV).catch((error: Error) => {
        device.errors.push(error.message);
        return 0;
      });
      send(
        status === 204
          ? {
              type: 'update',
              jobId,
              status: 'succeeded',
              progress: 100,
              phase: 'done',
              backend: 'simulated',
              // The contract's shape: the relay fails a success whose result lacks a required member.
              result: {
                mediaType: 'audio/wav',
                outputFormat: 'wav',
                sampleRate: 22050,
                audioChannels: 'mono',
                durationSeconds: 0,
                bytes: EMPTY_WAV.length,
              },
            }
          : {
              type: 'update',
              jobId,
              status: 'failed',
              progress: 0,
              phase: null,
              error: `output upload answered ${status}`,
            },
      );
      device.completed++;
    });
  });
}
