/**
 * Audiobook re-export: a 50 000-character manuscript (10 chapters of paragraphs) is exported to M4B with
 * espeak-ng, one paragraph is edited, and the book is exported again. The re-export reads and encodes only
 * the changed paragraph and its chapter; the figure is its time against the first export's (target ≤ 10 %).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { exportAudiobook } from '../src/audiobook/export-audiobook';
import { figure, type Figure } from './report';

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
    const run = async (): Promise<{ seconds: number; synthesized: number }> => {
      const started = performance.now();
      const result = await exportAudiobook({
        input: source, out: path.join(dir, 'book.m4b'), format: 'm4b', dataDir: path.join(dir, 'data'),
        onProgress: () => undefined, signal: new AbortController().signal,
      });
      return { seconds: (performance.now() - started) / 1000, synthesized: result.synthesized };
    };
    const first = await run();
    await writeFile(source, text.replace('(5.3)', 'and then, without a word, everyone went home (5.3)'));
    const second = await run();
    const detail = `first export ${first.seconds.toFixed(1)} s (${first.synthesized} paragraphs), re-export ${second.seconds.toFixed(1)} s (${second.synthesized} paragraph), ${text.length} characters, espeak-ng, M4B`;
    return [figure('audiobook', 're-export after a one-paragraph edit / first export', (second.seconds / first.seconds) * 100, '%', { kind: 'max', value: 10 }, detail)];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
