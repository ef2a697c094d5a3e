/**
 * Entry of the live sessions' audio thread (bundled as dist/realtime-audio-worker.js; audio-thread.ts starts
 * it): checks and decodes each chunk's base64 and resamples it to 16 kHz, one message at a time, in order,
 * keeping each stream's state between its chunks.
 */
import { parentPort } from 'node:worker_threads';
import { audioInput, isBase64Audio, type AudioInput } from './audio-input';
import type { AudioReply, AudioRequest } from './audio-thread';

const port = parentPort;
if (!port) throw new Error('audio-worker.ts runs as a worker thread.');

const streams = new Map<number, AudioInput>();

port.on('message', (request: AudioRequest) => {
  switch (request.type) {
    case 'open':
      streams.set(request.stream, audioInput(request.format));
      return;
    case 'close':
      streams.delete(request.stream);
      return;
    case 'push': {
      const input = streams.get(request.stream);
      let reply: AudioReply;
      if (!input) reply = { stream: request.stream, error: 'The audio stream is not open.' };
      else if (!isBase64Audio(request.audio)) reply = { stream: request.stream, samples: null };
      else {
        try {
          reply = { stream: request.stream, samples: input.push(Buffer.from(request.audio, 'base64')) };
        } catch (error) {
          reply = { stream: request.stream, error: error instanceof Error ? error.message : String(error) };
        }
      }
      port.postMessage(reply, 'samples' in reply && reply.samples ? [reply.samples.buffer as ArrayBuffer] : []);
    }
  }
});
