/**
 * Entry of the TTS audio thread (bundled as dist/tts-front-worker.js): runs a job's first-pass processing
 * (speech-front.ts) next to the synthesis, one message at a time, in order.
 */
import { parentPort } from 'node:worker_threads';
import { startLocalFront, type FrontReply, type FrontRequest, type SpeechFront } from './speech-front';

const port = parentPort;
if (!port) throw new Error('front-worker.ts runs as a worker thread.');

const reply = (message: FrontReply): void => port.postMessage(message);
let front: SpeechFront | undefined;
let queue = Promise.resolve();

async function handle(request: FrontRequest): Promise<void> {
  switch (request.type) {
    case 'init':
      front = await startLocalFront(request.settings);
      reply({ type: 'ready' });
      return;
    case 'samples':
      front!.push(request.samples);
      await front!.drain();
      reply({ type: 'ack' });
      return;
    case 'end':
      reply({ type: 'done', summary: await front!.finish() });
  }
}

port.on('message', (request: FrontRequest) => {
  queue = queue
    .then(() => handle(request))
    .catch((error: unknown) => {
      reply({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    });
});
