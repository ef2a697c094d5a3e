/**
 * Audiobook export as a book job (the CLI's and the editor's path: src/jobs/book-export.ts, in the engine
 * process). Re-export: a 50 000-character manuscript (10 chapters of paragraphs) is exported to M4B with
 * espeak-ng, one paragraph is edited, and the book is exported again. The re-export reads and encodes only
 * the changed paragraph and its chapter; the figure is its time against the first export's (target ≤ 10 %).
 * Memory: a book of one 100 000-character paragraph (about 1 h 40 min of speech); the figure is the engine
 * process's peak resident memory (VmHWM), beside its target (paragraphs and chapters stream, so it must not
 * grow with the paragraph's length).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { engineConfigFromEnvironment } from '../src/config/engine-environment';
import { openCliJobCore, type CliJobCore } from '../src/host/cli-job-core';
import { createBookExport, finishBookExport } from '../src/jobs/book-export';
import { silentLogger } from '../src/util/log';
import { figure, rssMb, type Figure } from './report';

const ENGINE_WORKER = path.resolve(__dirname, '..', 'dist', 'engine-worker.js');
/** The engine's peak for a 100 000-character paragraph: a model-free espeak engine idles near 100 MB. */
const PEAK_MEMORY_TARGET_MB = 300;

async function exportBook(
  core: CliJobCore,
  input: string,
  out: string,
): Promise<{ seconds: number; synthesized: number }> {
  const started = performance.now();
  const job = await createBookExport(core, { origin: 'cli', input, out, format: 'm4b' });
  const { job: ended, result } = await finishBookExport(core.jobs, job);
  if (!result) throw new Error(`The bench's export ended ${ended.status}: ${ended.error}`);
  return { seconds: (performance.now() - started) / 1000, synthesized: result.synthesized };
}

/** A sentence stream of `characters` with no blank line: one paragraph. */
function oneParagraph(characters: number): string {
  const sentences: string[] = [];
  let length = 0;
  for (let i = 0; length < characters; i++) {
    const sentence = SENTENCES[i % SENTENCES.length];
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(' ').slice(0, characters);
}

async function runMemoryBench(dir: string): Promise<Figure> {
  const core = await openCliJobCore({
    dataDir: path.join(dir, 'memory-data'),
    log: silentLogger,
    engineConfig: engineConfigFromEnvironment(),
    engineWorkerPath: ENGINE_WORKER,
  });
  try {
    const source = path.join(dir, 'long.md');
    const text = oneParagraph(100_000);
    await writeFile(source, `# One long paragraph\n\n${text}\n`);
    const run = await exportBook(core, source, path.join(dir, 'long.m4b'));
    const peak = Math.max(0, ...core.engine.pids.map((pid) => rssMb(pid, true) ?? 0));
    const detail = `one ${text.length}-character paragraph, ${run.seconds.toFixed(1)} s, espeak-ng, M4B; engine process only, ffmpeg apart; load ${os.loadavg()[0].toFixed(1)}`;
    return figure(
      'audiobook',
      'engine peak memory, one 100 000-character paragraph',
      peak,
      'MB',
      { kind: 'max', value: PEAK_MEMORY_TARGET_MB },
      detail,
    );
  } finally {
    await core.close();
  }
}

const SENTENCES = [
  'The harbour lay quiet under a pale morning sky, and the boats knocked gently against the pier.',
  'She counted the crates twice, because the ledger and the cargo had disagreed before.',
  'Nobody on the quay remembered a winter as long as this one, or a spring that came so late.',
  'He wrote the letter slowly, crossing out every third word, and still it said too much.',
  'By noon the fog had lifted, and the town looked smaller than it had in the dark.',
  'They argued about the route until the lamps were lit, and then they argued about the lamps.',
];

/** About `characters` of prose in ten chapters of ~500-character paragraphs; the same every run. */
export function manuscript(characters: number): string {
  const chapters: string[] = ['---\ntitle: Bench Book\nauthor: Speech Studio\n---\n'];
  const perChapter = characters / 10;
  let sentence = 0;
  for (let chapter = 1; chapter <= 10; chapter++) {
    const paragraphs: string[] = [];
    let length = 0;
    while (length < perChapter) {
      const paragraph: string[] = [];
      while (paragraph.join(' ').length < 500) paragraph.push(`${SENTENCES[sentence++ % SENTENCES.length]}`);
      const text = `${paragraph.join(' ')} (${chapter}.${paragraphs.length + 1})`;
      paragraphs.push(text);
      length += text.length;
    }
    chapters.push(`# Chapter ${chapter}\n\n${paragraphs.join('\n\n')}\n`);
  }
  return chapters.join('\n');
}

export async function runAudiobookBench(): Promise<Figure[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'speech-bench-audiobook-'));
  try {
    const source = path.join(dir, 'book.md');
    const text = manuscript(50_000);
    await writeFile(source, text);
    const core = await openCliJobCore({
      dataDir: path.join(dir, 'data'),
      log: silentLogger,
      engineConfig: engineConfigFromEnvironment(),
      engineWorkerPath: ENGINE_WORKER,
    });
    let ratio: Figure;
    try {
      const first = await exportBook(core, source, path.join(dir, 'book.m4b'));
      await writeFile(source, text.replace('(5.3)', 'and then, without a word, everyone went home (5.3)'));
      const second = await exportBook(core, source, path.join(dir, 'book.m4b'));
      const detail = `first export ${first.seconds.toFixed(1)} s (${first.synthesized} paragraphs), re-export ${second.seconds.toFixed(1)} s (${second.synthesized} paragraph), ${text.length} characters, espeak-ng, M4B, load ${os.loadavg()[0].toFixed(1)}`;
      ratio = figure(
        'audiobook',
        're-export after a one-paragraph edit / first export',
        (second.seconds / first.seconds) * 100,
        '%',
        { kind: 'max', value: 10 },
        detail,
      );
    } finally {
      await core.close();
    }
    return [ratio, await runMemoryBench(dir)];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
