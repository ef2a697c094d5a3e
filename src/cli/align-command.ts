/**
 * `node dist/cli.js align <media> <script|subtitles> --out x.srt`: forced alignment in this process (not a
 * server: nothing else waits on its event loop), the transcript written in the format --out names. A
 * subtitle file re-timed into --out of its own format keeps everything but its times (styles, tags, ids).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApiError } from '../contract/errors';
import type { TranscriptFormat } from '../contract/openapi';
import { compileValidators } from '../contract/validation';
import { findVadModelIn } from '../engine/stt/model-files';
import { admitAlignment, alignRecognizerModel } from '../jobs/align-admission';
import { renderTranscript } from '../subtitles/render';
import { retimedSource } from '../subtitles/retime-to-alignment';
import { subtitleFormatOfPath } from '../subtitles/scan';
import { renderSubtitleFile, subtitleFileFormatOf, type SubtitleFileFormat } from '../subtitles/subtitle-file';
import type { Transcript } from '../subtitles/types';
import { UsageError } from '../util/usage-error';

export interface AlignFlags {
  out?: string;
  language?: string;
}

type OutFormat = { transcript: Extract<TranscriptFormat, 'txt' | 'json-full'> } | { subtitles: SubtitleFileFormat };

/** What an output file's extension asks for: a subtitle file, plain text, or (`.json`) the full transcript. */
function formatOf(out: string): OutFormat {
  const extension = path.extname(out).slice(1).toLowerCase();
  if (extension === 'json') return { transcript: 'json-full' };
  if (extension === 'txt') return { transcript: 'txt' };
  const subtitles = subtitleFileFormatOf(out);
  if (!subtitles) throw new UsageError(`--out must end in .srt, .vtt, .ass, .ssa, .ttml, .dfxp, .sbv, .txt or .json, not "${path.basename(out)}".`);
  return { subtitles };
}

/** The output: the script file re-timed when it is a subtitle file of the format asked for, else laid out anew. */
function outputOf(transcript: Transcript, format: OutFormat, scriptFile: string, original: string, out: string, unmatched: readonly { index: number }[]): string {
  const scriptFormat = subtitleFormatOfPath(scriptFile);
  if ('subtitles' in format && scriptFormat && scriptFormat === subtitleFormatOfPath(out)) {
    return retimedSource(original, scriptFormat, transcript.segments, unmatched);
  }
  return 'subtitles' in format ? renderSubtitleFile(transcript, format.subtitles) : renderTranscript(transcript, format.transcript).body;
}

/** Aligns and writes --out; answers the exit code. Cues not found in the media are listed on stderr. */
export async function runAlignCommand(args: readonly string[], flags: AlignFlags, dataDir: string): Promise<number> {
  const [media, scriptFile] = args;
  if (!media || !scriptFile) throw new UsageError('Expected "align <media> <script.txt|.md|.srt|.vtt|.ass|.ttml|.sbv> --out x.srt".');
  if (!flags.out) throw new UsageError('align needs --out, the subtitles to write (e.g. talk.srt).');
  const format = formatOf(flags.out);
  let admitted;
  let content: Buffer;
  try {
    content = await readFile(scriptFile);
    admitted = admitAlignment(compileValidators(), flags.language ? { language: flags.language } : {}, { originalName: path.basename(scriptFile), content });
  } catch (error) {
    if (error instanceof ApiError) throw new UsageError(error.message);
    throw error;
  }
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'speech-align-'));
  try {
    const scriptPath = path.join(workDir, `script.${admitted.scriptFormat}`);
    await writeFile(scriptPath, admitted.script, 'utf8');
    // Loaded here so other commands do not load the engine's code.
    const { runAlignTask } = await import('../engine/align/run-align');
    let shown = -1;
    const outcome = await runAlignTask({
      kind: 'align', inputPath: path.resolve(media), scriptPath, scriptFormat: admitted.scriptFormat, workDir, options: admitted.options,
      vadModelPath: await findVadModelIn(path.join(dataDir, 'models')),
      recognizerModelPath: await alignRecognizerModel(dataDir, admitted.options.language),
    }, (phase, progress) => {
      const tenth = Math.floor(progress / 10);
      if (tenth > shown) console.error(`${phase} ${Math.round(progress)} %`);
      shown = Math.max(shown, tenth);
    });
    const transcript = JSON.parse(await readFile(path.join(workDir, 'transcript.json'), 'utf8')) as Transcript;
    const { matchedCues = 0, unmatchedCues = [] } = outcome.result;
    await writeFile(flags.out, outputOf(transcript, format, scriptFile, content.toString('utf8'), flags.out, unmatchedCues), 'utf8');
    console.log(`Aligned ${matchedCues} of ${matchedCues + unmatchedCues.length} cues to ${path.basename(media)}; wrote ${flags.out}.`);
    for (const cue of unmatchedCues) console.error(`Not found in the media: cue ${cue.index}: ${cue.text.replace(/\s+/g, ' ').slice(0, 80)}`);
    return 0;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
