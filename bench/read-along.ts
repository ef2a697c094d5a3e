/**
 * Read-along books: a 100 000-character EPUB (the test book with the bench prose in its last chapter)
 * exported with espeak-ng as a plain M4B and as a read-along EPUB 3 (one clip per sentence, overlays, the
 * book's own documents kept), each from an empty cache. Figures: the EPUB 3's wall time over the M4B's (the overlays' overhead; target ≤ 10 %), and the engine
 * process's peak memory for the EPUB 3 (VmHWM), beside the load average.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AudiobookFormat } from '../src/audiobook/book-plan';
import { engineConfigFromEnvironment } from '../src/config/engine-environment';
import { openCliJobCore } from '../src/host/cli-job-core';
import { createBookExport, finishBookExport } from '../src/jobs/book-export';
import { silentLogger } from '../src/util/log';
import { makeEpub3 } from '../test/helpers/book-files';
import { manuscript } from './audiobook';
import { figure, rssMb, type Figure } from './report';

const ENGINE_WORKER = path.resolve(__dirname, '..', 'dist', 'engine-worker.js');
const PEAK_MEMORY_TARGET_MB = 300;

async function exportOnce(
  dir: string,
  input: string,
  format: AudiobookFormat,
): Promise<{ seconds: number; peakMb: number }> {
  const core = await openCliJobCore({
    dataDir: path.join(dir, `data-${format}`),
    log: silentLogger,
    engineConfig: engineConfigFromEnvironment(),
    engineWorkerPath: ENGINE_WORKER,
  });
  try {
    const started = performance.now();
    const job = await createBookExport(core, {
      origin: 'cli',
      input,
      out: path.join(dir, `book.${format === 'epub3' ? 'epub' : format}`),
      format,
      chapters: 'all',
    });
    const { job: ended, result } = await finishBookExport(core.jobs, job);
    if (!result) throw new Error(`The bench's ${format} export ended ${ended.status}: ${ended.error}`);
    const seconds = (performance.now() - started) / 1000;
    return { seconds, peakMb: Math.max(0, ...core.engine.pids.map((pid) => rssMb(pid, true) ?? 0)) };
  } finally {
    await core.close();
  }
}

export async function runReadAlongBench(): Promise<Figure[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'speech-bench-read-along-'));
  try {
    // The bench manuscript's paragraphs, as the second chapter document of the test EPUB.
    const paragraphs = manuscript(100_000)
      .split('\n\n')
      .filter((block) => !block.startsWith('#') && !block.startsWith('---'));
    const input = path.join(dir, 'book.epub');
    await writeFile(input, makeEpub3({ extraParagraphs: paragraphs }));
    const characters = paragraphs.reduce((sum, paragraph) => sum + paragraph.length, 0);
    const plain = await exportOnce(dir, input, 'm4b');
    const readAlong = await exportOnce(dir, input, 'epub3');
    const load = os.loadavg()[0].toFixed(1);
    const detail = `M4B ${plain.seconds.toFixed(1)} s, read-along EPUB 3 ${readAlong.seconds.toFixed(1)} s, ${characters} characters, espeak-ng, empty caches, load ${load}`;
    return [
      figure(
        'epub',
        'read-along EPUB 3 wall time over the plain M4B export',
        (readAlong.seconds / plain.seconds - 1) * 100,
        '%',
        { kind: 'max', value: 10 },
        detail,
      ),
      figure(
        'epub',
        'engine peak memory, 100 000-character EPUB → read-along EPUB 3',
        readAlong.peakMb,
        'MB',
        { kind: 'max', value: PEAK_MEMORY_TARGET_MB },
        `M4B export ${plain.peakMb.toFixed(0)} MB; load ${load}`,
      ),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
