/**
 * Live transcription with noise reduction on, through the stock `openai` SDK's Realtime client against a
 * real server and engine: with the GTCRN model installed a committed utterance completes (GA
 * `noise_reduction` and beta `input_audio_noise_reduction`); without it the item fails and says what to install.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import OpenAI from 'openai';
import { OpenAIRealtimeWS as BetaRealtimeWS } from 'openai/beta/realtime/ws';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { startTestServer, type TestServer } from '../helpers/server';
import { installSttModel } from '../helpers/stt-engine';
import { testModel } from '../helpers/test-models';

type Event = Record<string, any> & { type: string };

async function jfkPcm(): Promise<Buffer> {
  const bytes = await readFile(testModel('audio/jfk.wav'));
  const at = bytes.indexOf('data') + 8;
  return bytes.subarray(at, at + (bytes.readUInt32LE(at - 4) & ~1));
}

/** Runs one manual-commit utterance of jfk.wav and answers the item's last event (completed or failed). */
async function utterance(t: TestServer, form: 'ga' | 'beta'): Promise<{ last: Event; events: Event[] }> {
  const client = new OpenAI({ baseURL: t.base, apiKey: 'unused' });
  const createConnection = () => net.connect({ host: '127.0.0.1', port: t.server.port });
  // Both SDK clients, used through what they share.
  const rt: {
    socket: any;
    send(event: any): void;
    close(): void;
    on(event: string, listener: (...args: any[]) => void): unknown;
  } =
    form === 'ga'
      ? new OpenAIRealtimeWS({ intent: 'transcription', options: { createConnection } }, client)
      : new BetaRealtimeWS({ model: 'gpt-4o-transcribe', options: { createConnection } }, client);
  const events: Event[] = [];
  const pcm = await jfkPcm();
  try {
    return await new Promise((resolve, reject) => {
      rt.on('error', () => undefined);
      rt.socket.once('close', () => reject(new Error(`closed: ${events.map((e) => e.type).join(', ')}`)));
      rt.on('event', (event: Event) => {
        events.push(event);
        if (event.type === 'session.created' || event.type === 'transcription_session.created') {
          rt.send(
            (form === 'ga'
              ? {
                  type: 'session.update',
                  session: {
                    type: 'transcription',
                    audio: {
                      input: {
                        format: { type: 'audio/pcm', rate: 16000 },
                        transcription: { model: 'whisper-1', language: 'en' },
                        turn_detection: null,
                        noise_reduction: { type: 'near_field' },
                      },
                    },
                  },
                }
              : {
                  type: 'transcription_session.update',
                  session: {
                    input_audio_format: 'pcm16',
                    input_audio_sample_rate: 16000,
                    input_audio_transcription: { model: 'whisper-1', language: 'en' },
                    turn_detection: null,
                    input_audio_noise_reduction: { type: 'far_field' },
                  },
                }) as any,
          );
        }
        if (event.type === 'session.updated' || event.type === 'transcription_session.updated') {
          for (let at = 0; at < pcm.length; at += 3200)
            rt.send({
              type: 'input_audio_buffer.append',
              audio: pcm.subarray(at, at + 3200).toString('base64'),
            } as any);
          rt.send({ type: 'input_audio_buffer.commit' } as any);
        }
        if (event.type === 'error') reject(new Error(JSON.stringify(event.error)));
        if (
          event.type.startsWith('conversation.item.input_audio_transcription.') &&
          event.type !== 'conversation.item.input_audio_transcription.delta'
        )
          resolve({ last: event, events });
      });
    });
  } finally {
    rt.close();
  }
}

describe('GET /v1/realtime with noise reduction', () => {
  it('completes utterances with GTCRN cleaning the audio, in the GA and the beta form', async () => {
    const t = await startTestServer();
    try {
      await installSttModel(t.dataDir);
      await mkdir(path.join(t.dataDir, 'models', 'enhancement'), { recursive: true });
      await copyFile(
        testModel('enhancement', 'gtcrn_simple.onnx'),
        path.join(t.dataDir, 'models', 'enhancement', 'gtcrn_simple.onnx'),
      );
      for (const form of ['ga', 'beta'] as const) {
        const { last, events } = await utterance(t, form);
        assert.equal(last.type, 'conversation.item.input_audio_transcription.completed', JSON.stringify(last));
        assert.equal(typeof last.transcript, 'string');
        const updated = events.find((e) => e.type.endsWith('.updated')) as Event;
        const reported =
          form === 'ga' ? updated.session.audio.input.noise_reduction : updated.session.input_audio_noise_reduction;
        assert.deepEqual(reported, { type: form === 'ga' ? 'near_field' : 'far_field' });
      }
    } finally {
      await t.dispose();
    }
  });

  it('fails the item, naming the model to install, when GTCRN is not installed', async () => {
    const t = await startTestServer();
    try {
      await installSttModel(t.dataDir);
      const { last } = await utterance(t, 'ga');
      assert.equal(last.type, 'conversation.item.input_audio_transcription.failed');
      assert.match(last.error.message, /GTCRN/);
    } finally {
      await t.dispose();
    }
  });
});
