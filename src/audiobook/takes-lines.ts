/**
 * How a book's verified takes read as text: a line per paragraph and the whole report, shared by the
 * engine (which writes `<out>.verify.txt`) and the CLI (which prints the retaken and still-bad ones).
 */
import type { ParagraphTakes } from './book-plan';

export interface TakesReport {
  scorer: string;
  threshold: number;
  retakes: number;
  paragraphs: ParagraphTakes[];
}

export const percent = (wer: number): string => `${(wer * 100).toFixed(1)} %`;

/** A paragraph's place, as the report and the CLI name it. */
export const paragraphPlace = (paragraph: ParagraphTakes): string =>
  `Chapter ${paragraph.chapter} "${paragraph.chapterTitle}", paragraph ${paragraph.paragraph}`;

/** One line for a paragraph: its kept take and, when retaken, every take's word error rate. */
export function paragraphLine(paragraph: ParagraphTakes): string {
  if (paragraph.skipped) return `${paragraphPlace(paragraph)}: not verified (${paragraph.skipped}).`;
  const kept = paragraph.takes[paragraph.kept - 1];
  const verdict = paragraph.passed ? 'ok' : 'STILL BAD';
  if (paragraph.takes.length === 1)
    return `${paragraphPlace(paragraph)}: ${verdict}, take 1, WER ${percent(kept.wer)}.`;
  const all = paragraph.takes.map((take) => `take ${take.take} ${percent(take.wer)} at speed ${take.speed}`).join(', ');
  return `${paragraphPlace(paragraph)}: ${verdict}, retaken: ${all}; kept take ${paragraph.kept} (WER ${percent(kept.wer)}).`;
}

export function takesReportText(report: TakesReport): string {
  const bad = report.paragraphs.filter((paragraph) => !paragraph.passed && !paragraph.skipped);
  const retaken = report.paragraphs.filter((paragraph) => paragraph.takes.length > 1);
  return [
    `Verified takes, heard by ${report.scorer}; a take over ${percent(report.threshold)} word error rate is retaken up to ${report.retakes} times.`,
    `${report.paragraphs.length} paragraphs, ${retaken.length} retaken, ${bad.length} still over the threshold.`,
    '',
    ...report.paragraphs.map(paragraphLine),
    ...(bad.length
      ? [
          '',
          'Still bad (listen to them, then edit the text or the lexicon):',
          ...bad.map((paragraph) => `${paragraphPlace(paragraph)}: "${paragraph.text.slice(0, 120)}"`),
        ]
      : []),
    '',
  ].join('\n');
}
