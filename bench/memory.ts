/**
 * Memory of the headless server (its own process, sampled every 25 ms from /proc):
 *   - during a 512 MB upload (a sparse file just under the limit, with a whisper model installed so the
 *     upload is accepted and streams to the end): the upload goes to disk, never into memory;
 *   - during a 100 000-character text-to-speech job: the server's RSS, and the engine process's peak.
 * Targets: the server grows by at most 50 MB in either case; the engine stays under 300 MB.
 */
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { MAX_UPLOAD_BYTES } from '../src/http/upload/receive-upload';
import { voiceIdFor } from '../src/voices/voice-id';
import { startCli } from '../test/helpers/cli';
import { uploadMultipart } from '../test/helpers/multipart';
import { tempDir } from '../test/helpers/server';
import { childrenOf, installSyntheticWhisper } from '../test/pressure/support';
import { figure, rssMb, sampleRss, type Figure } from './report';

const SERVER_GROWTH_MB = 50;
const ENGINE_MB = 300;

async function waitForJob(base: string, id: string): Promise<{ status: string; error: string | null }> {
  for (;;) {
    const job = (await (await fetch(`${base}/jobs/${id}`)).json()) as { status: string; error: string | null };
    if (!['queued', 'loading_model', 'processing'].includes(job.status)) return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function runMemoryBench(): Promise<Figure[]> {
  if (process.platform !== 'linux') {
    console.log('memory    skipped: reads process memory from /proc (Linux)');
    return [];
  }
  const dataDir = await tempDir('speech-bench-memory-');
  const scratch = await tempDir('speech-bench-upload-');
  const cli = await startCli(['--port', '0', '--data-dir', dataDir]);
  const pid = cli.child.pid!;
  const figures: Figure[] = [];
  try {
    await installSyntheticWhisper(dataDir);
    await fetch(`${cli.base}/health`);
    const baseline = rssMb(pid) ?? 0;
    figures.push(figure('memory', 'server RSS at rest', baseline, 'MB'));

    const big = path.join(scratch, 'big.wav');
    const handle = await open(big, 'w');
    await handle.truncate(MAX_UPLOAD_BYTES - 1024 * 1024);
    await handle.close();
    const sampler = sampleRss(() => pid);
    const started = performance.now();
    const res = await uploadMultipart(
      `${cli.base}/stt/jobs`,
      { language: 'en', diarizationEnabled: 'false' },
      { source: big, filename: 'big.wav' },
    );
    const seconds = (performance.now() - started) / 1000;
    const uploadPeak = sampler.stop() ?? 0;
    if (res.status !== 200) throw new Error(`The 512 MB upload was refused: ${res.body.toString().slice(0, 300)}`);
    await waitForJob(cli.base, res.json().id);
    await rm(big);
    const mb = (MAX_UPLOAD_BYTES - 1024 * 1024) / 2 ** 20;
    figures.push(
      figure(
        'memory',
        `server RSS peak during a ${mb.toFixed(0)} MB upload`,
        uploadPeak,
        'MB',
        undefined,
        `accepted, ${(mb / seconds).toFixed(0)} MB/s`,
      ),
    );
    figures.push(
      figure('memory', 'server RSS growth during the upload', uploadPeak - baseline, 'MB', {
        kind: 'max',
        value: SERVER_GROWTH_MB,
      }),
    );

    const before = rssMb(pid) ?? 0;
    const text = 'The quick brown fox jumps over the lazy dog, and the engine keeps on reading. '
      .repeat(1300)
      .slice(0, 100_000);
    const serverSampler = sampleRss(() => pid);
    let enginePeak = 0;
    const engineWatch = setInterval(() => {
      void childrenOf(pid).then((engines) => {
        for (const engine of engines) enginePeak = Math.max(enginePeak, rssMb(engine, true) ?? 0);
      });
    }, 100);
    const ttsStarted = performance.now();
    const created = await fetch(`${cli.base}/tts/jobs`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ voiceId: voiceIdFor('espeak-ng', 'gmw/en-US'), text }),
    });
    const job = await waitForJob(cli.base, ((await created.json()) as { id: string }).id);
    const ttsSeconds = (performance.now() - ttsStarted) / 1000;
    clearInterval(engineWatch);
    for (const engine of await childrenOf(pid)) enginePeak = Math.max(enginePeak, rssMb(engine, true) ?? 0);
    const ttsPeak = serverSampler.stop() ?? 0;
    if (job.status !== 'succeeded') throw new Error(`The 100 000-character job ${job.status}: ${job.error}`);
    figures.push(
      figure(
        'memory',
        'server RSS peak during a 100 000-character TTS job',
        ttsPeak,
        'MB',
        undefined,
        `job took ${ttsSeconds.toFixed(1)} s`,
      ),
    );
    figures.push(
      figure('memory', 'server RSS growth during the TTS job', ttsPeak - before, 'MB', {
        kind: 'max',
        value: SERVER_GROWTH_MB,
      }),
    );
    figures.push(
      figure('memory', 'engine RSS peak during the TTS job', enginePeak, 'MB', { kind: 'max', value: ENGINE_MB }),
    );
    return figures;
  } finally {
    cli.child.kill('SIGTERM');
    await cli.exited;
    await rm(dataDir, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  }
}
