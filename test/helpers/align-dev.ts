/**
 * The alignment dev set (real read speech with its script and measured sentence times) through a real
 * server: a server with the VAD model the aligner refines with, and one POST /align/jobs run to its end.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isTerminal, request, startTestServer, waitForJob, type TestServer } from './server';
import { testModel } from './test-models';

export const ALIGN_DEV = (name: string): string => testModel('audio', 'align-dev', name);

export interface AlignedSegment {
  start: number;
  end: number;
  text: string;
  words: Array<{ start: number; end: number; text: string }>;
}

/** A server with the VAD model installed. */
export async function serverWithVad(): Promise<TestServer> {
  const t = await startTestServer();
  await mkdir(path.join(t.dataDir, 'models', 'vad'), { recursive: true });
  await copyFile(
    testModel('vad/ggml-silero-v6.2.0.bin'),
    path.join(t.dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'),
  );
  return t;
}

/** Aligns `script` (a .txt's bytes) to dev-a.wav; the job must succeed; its json-full segments come back with it. */
export async function alignDevAudio(t: TestServer, script: Buffer): Promise<{ job: any; segments: AlignedSegment[] }> {
  const form = new FormData();
  form.append('file', new Blob([await readFile(ALIGN_DEV('dev-a.wav'))]), 'dev-a.wav');
  form.append('script', new Blob([script]), 'script.txt');
  form.append('language', 'en');
  const created = await fetch(`${t.base}/align/jobs`, { method: 'POST', body: form });
  const body = (await created.json()) as { id: string };
  assert.equal(created.status, 200, JSON.stringify(body));
  const job = await waitForJob(t.base, body.id, isTerminal, 300_000);
  assert.equal(job.status, 'succeeded', job.error);
  const transcript = (await request(`${t.base}/jobs/${job.id}/transcript?format=json-full`)).json();
  return { job, segments: transcript.segments };
}
