/**
 * The verified-takes report that comes with a book: every paragraph's takes as JSON (`<out>.verify.json`,
 * what the editor reads for its Problems) and the same as readable text (`<out>.verify.txt`), and the
 * summary the job's result carries (retaken and still-bad paragraphs only, so the job store stays small).
 */
import { rename, writeFile } from 'node:fs/promises';
import type { BookVerify, ParagraphTakes, VerifySummary } from '../../audiobook/book-plan';
import { takesReportText, type TakesReport } from '../../audiobook/takes-lines';
import { scorerName } from './hear-take';

/** Where the report goes, beside the book (or beside the folder of chapter files). */
export const takesReportFiles = (out: string): { json: string; text: string } => ({
  json: `${out}.verify.json`,
  text: `${out}.verify.txt`,
});

/** Writes both files (each as `.partial`, then renamed) and answers the result's summary. */
export async function writeTakesReport(
  out: string,
  verify: BookVerify,
  paragraphs: ParagraphTakes[],
): Promise<VerifySummary> {
  const report: TakesReport = {
    scorer: scorerName(verify.scorer),
    threshold: verify.threshold,
    retakes: verify.retakes,
    paragraphs,
  };
  const files = takesReportFiles(out);
  for (const [file, content] of [
    [files.json, `${JSON.stringify(report, null, 2)}\n`],
    [files.text, takesReportText(report)],
  ] as const) {
    await writeFile(`${file}.partial`, content, 'utf8');
    await rename(`${file}.partial`, file);
  }
  return {
    scorer: report.scorer,
    threshold: report.threshold,
    retakes: report.retakes,
    paragraphs: paragraphs.length,
    retaken: paragraphs.filter((paragraph) => paragraph.takes.length > 1),
    stillBad: paragraphs.filter((paragraph) => !paragraph.passed && !paragraph.skipped),
    reportFile: files.json,
    textFile: files.text,
  };
}
