/**
 * Proof-listening: the whole comparison (the source's words as narrated, the alignment, the findings) for a
 * 50 000-character Markdown book against a constructed transcript with a difference every 50 words, and the
 * alignment alone for 50 000 words with a skipped passage and a hallucinated loop. Median wall time of 5
 * runs after a warm-up. Targets: < 1 s and < 2 s, so a book's problems appear as soon as its transcript does.
 */
import { alignTokens } from '../src/proof-listen/align';
import { proofListen } from '../src/proof-listen/findings';
import { sourceWords, type TimedWord } from '../src/proof-listen/spoken-words';
import { figure, median, type Figure } from './report';

const CHARACTERS = 50_000;
const WORDS = 50_000;
const RUNS = 5;

function book(): string {
  const sentences = [
    'The harbour was quiet when the boat came in at 6 in the morning.',
    'Doctor Nguyen paid $12.50 for the **fish**, and [the receipt](https://example.com) went in her pocket.',
    'Nobody on the quay had seen a storm like the one of 1987.',
  ];
  const parts: string[] = [];
  let length = 0;
  for (let chapter = 1; length < CHARACTERS; chapter++) {
    const paragraph = `## Chapter ${chapter}\n\n${sentences.join(' ')} ${sentences[chapter % 3]}\n\n\`\`\`\ncode is not read\n\`\`\`\n\n`;
    parts.push(paragraph);
    length += paragraph.length;
  }
  return parts.join('').slice(0, CHARACTERS);
}

/** What a recognizer might hear: the narrated words, with one word changed, dropped or added every 50. */
function transcriptOf(text: string): TimedWord[] {
  const narrated = sourceWords(text, 'markdown', 'markdown', 'en-US').narration.split(/\s+/).filter(Boolean);
  const words: TimedWord[] = [];
  narrated.forEach((word, i) => {
    const at = words.length * 0.4;
    if (i % 150 === 50) return;
    words.push({ text: i % 150 === 100 ? 'mumble' : word, start: at, end: at + 0.3 });
    if (i % 150 === 0) words.push({ text: 'um', start: at + 0.4, end: at + 0.6 });
  });
  return words;
}

/** Wall times and CPU times (ms) of RUNS runs after a warm-up. */
function timed(run: () => unknown): { wall: number[]; cpu: number[] } {
  run();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const used = process.cpuUsage();
    run();
    const spent = process.cpuUsage(used);
    wall.push(performance.now() - started);
    cpu.push((spent.user + spent.system) / 1000);
  }
  return { wall, cpu };
}

export async function runProofListenBench(): Promise<Figure[]> {
  const text = book();
  const words = transcriptOf(text);
  const report = proofListen(text, 'markdown', 'markdown', 'en-US', words);
  const whole = timed(() => proofListen(text, 'markdown', 'markdown', 'en-US', words));

  const vocabulary = ['the', 'boat', 'came', 'in', 'at', 'six', 'and', 'harbour', 'was', 'quiet', 'when', 'morning'];
  const a = Array.from({ length: WORDS }, (_, i) =>
    i % 97 === 0 ? `w${i}` : vocabulary[(i * 7 + (i >> 3)) % vocabulary.length],
  );
  const b = [
    ...a.slice(0, 20_000),
    ...a.slice(20_300, 40_000),
    ...Array.from({ length: 250 }, () => 'loop'),
    ...a.slice(40_000),
  ];
  const alignment = timed(() => alignTokens(a, b));
  return [
    figure(
      'proof',
      `proof-listen of a ${CHARACTERS / 1000}k-character Markdown book`,
      median(whole.wall),
      'ms',
      { kind: 'max', value: 1000 },
      `median of ${RUNS} (CPU time ${median(whole.cpu).toFixed(0)} ms); ${report.sourceTokens} words compared, ${report.findings.length} differences found`,
    ),
    figure(
      'proof',
      `alignment of ${WORDS / 1000}k words`,
      median(alignment.wall),
      'ms',
      { kind: 'max', value: 2000 },
      `median of ${RUNS} (CPU time ${median(alignment.cpu).toFixed(0)} ms); a 300-word skip and a 250-word loop`,
    ),
  ];
}
