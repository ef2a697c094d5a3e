/**
 * `npm run bench -- realtime`: the live door's plumbing overhead with the synthetic whisper model: seconds
 * from `input_audio_buffer.commit` to the `completed` event for jfk.wav, against the same audio as a file
 * job through POST /audio/transcriptions in the same run (target ≤ 1.2×), with the load average.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import OpenAI, { toFile } from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { startLocalServer } from '../src/host/local-server';
import { silentLogger } from '../src/util/log';
import { testModel } from '../test/helpers/test-models';
import { figure, median } from './report';

const ENGINE_WORKER = path.resolve(__dirname, '..', 'dist', 'engine-worker.js');
const ROUNDS = 5;

export async function runRealtimeBench(): Promise<unknown> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-realtime-'));
  await mkdir(path.join(dataDir, 'models', 'whisper'), { recursive: true });
  await mkdir(path.join(dataDir, 'models', 'vad'), { recursive: true });
  await symlink(testModel('whisper/ggml-synthetic-random.bin'), path.join(dataDir, 'models', 'whisper', 'ggml-synthetic-random.bin'));
  await copyFile(testModel('vad/ggml-silero-v6.2.0.bin'), path.join(dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'));
  const server = await startLocalServer({ host: '127.0.0.1', port: 0, dataDir, auth: false, log: silentLogger, engineWorkerPath: ENGINE_WORKER });
  try {
    const wav = await readFile(testModel('audio/jfk.wav'));
    const pcm = wav.subarray(wav.indexOf('data') + 8);
    const client = new OpenAI({ baseURL: server.url, apiKey: 'unused' });
    const fileTimes: number[] = [];
    const liveTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      let started = performance.now();
      await client.audio.transcriptions.create({ file: await toFile(wav, 'jfk.wav'), model: 'whisper-1', language: 'en' });
      fileTimes.push((performance.now() - started) / 1000);

      const rt = new OpenAIRealtimeWS({ intent: 'transcription', options: { createConnection: () => net.connect({ host: '127.0.0.1', port: server.port }) } as never }, client);
      const done = new Promise<void>((resolve, reject) => {
        rt.on('event', (event: { type: string }) => {
          if (event.type === 'session.updated') {
            for (let at = 0; at < pcm.length; at += 3200) rt.send({ type: 'input_audio_buffer.append', audio: pcm.subarray(at, at + 3200).toString('base64') });
            started = performance.now();
            rt.send({ type: 'input_audio_buffer.commit' });
          }
          if (event.type === 'conversation.item.input_audio_transcription.completed') resolve();
          if (event.type === 'error') reject(new Error(JSON.stringify(event)));
        });
      });
      rt.socket.once('open', () => rt.send({ type: 'session.update', session: { type: 'transcription', audio: { input: { format: { type: 'audio/pcm', rate: 16000 }, transcription: { model: 'whisper-1', language: 'en' }, turn_detection: null } } } } as never));
      await done;
      liveTimes.push((performance.now() - started) / 1000);
      rt.close();
    }
    const ratio = median(liveTimes) / median(fileTimes);
    const load = os.loadavg()[0];
    return [
      figure('realtime', 'file job (jfk.wav, 11 s)', median(fileTimes), 's', undefined, `load ${load.toFixed(2)}`),
      figure('realtime', 'commit → completed (same audio)', median(liveTimes), 's'),
      figure('realtime', 'live / file', ratio, '×', { kind: 'max', value: 1.2 }, `load ${load.toFixed(2)}`),
    ];
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
