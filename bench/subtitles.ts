/**
 * Subtitle diagnostics: checkSubtitles over a 2 000-cue SRT with a problem in every fifth cue (what an
 * editor recomputes as the file changes), median wall time of 20 runs after a warm-up (the first check), with
 * the CPU time beside it, which other load on the machine does not inflate. Target: < 50 ms.
 */
import { checkSubtitles } from '../src/subtitles/check';
import { DEFAULT_SUBTITLE_STYLE } from '../src/contract/subtitle-style';
import { formatTimestamp } from '../src/subtitles/timestamps';
import { figure, median, type Figure } from './report';

const CUES = 2000;
const RUNS = 20;

function subtitleFile(): string {
  const blocks: string[] = [];
  for (let i = 0; i < CUES; i++) {
    const start = i * 3.5;
    // Every fifth cue breaks a rule: too short, too fast, a line too long, three lines, an overlap.
    const kind = i % 25;
    const end = start + (kind === 5 ? 0.4 : 2.8);
    const lines =
      kind === 10
        ? ['This line is far longer than forty-two characters, on purpose.']
        : kind === 15
          ? ['One', 'two', 'three lines']
          : kind === 20
            ? ['Many many words crammed into a cue', 'that is much too short to read them']
            : [`<i>Cue number ${i + 1}</i> says something`, 'on two lines.'];
    const shownEnd = kind === 20 ? start + 1 : kind === 0 && i > 0 ? start + 3.7 : end;
    blocks.push(
      `${i + 1}\r\n${formatTimestamp(start, ',')} --> ${formatTimestamp(shownEnd, ',')}\r\n${lines.join('\r\n')}\r\n`,
    );
  }
  return `\uFEFF${blocks.join('\r\n')}`;
}

export async function runSubtitlesBench(): Promise<Figure[]> {
  const source = subtitleFile();
  const problems = checkSubtitles(source, 'srt', DEFAULT_SUBTITLE_STYLE).length;
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    checkSubtitles(source, 'srt', DEFAULT_SUBTITLE_STYLE);
    const used = process.cpuUsage(cpu);
    times.push(performance.now() - started);
    cpuTimes.push((used.user + used.system) / 1000);
  }
  return [
    figure(
      'subtitles',
      `diagnostics for a ${CUES}-cue SRT`,
      median(times),
      'ms',
      { kind: 'max', value: 50 },
      `median of ${RUNS} (CPU time ${median(cpuTimes).toFixed(1)} ms), ${problems} problems found, ${(source.length / 1024).toFixed(0)} KB`,
    ),
  ];
}
