/**
 * The engine side of a translation job: reads the subtitle file, translates its cues with the warm language
 * model (src/translate/translate-cues.ts), and writes the translated file beside where it goes, renamed into
 * place at the end, so a cancelled job leaves no half file under the asked name.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseSubtitles } from '../../subtitles/parse';
import { formatSrt, formatVtt } from '../../subtitles/render-subtitles';
import { translateCues, type CueTranslation, type SourceCue } from '../../translate/translate-cues';
import type { SubtitleStyle } from '../../contract/subtitle-style';
import type { ProgressReporter, TaskOutcome, TranslateResult, TranslateTask } from '../../engine-api/protocol';
import { LLM_BACKEND, UserFacingError } from '../../engine-api/protocol';
import { answerAsJson, warmModel } from './llama-runtime';
import { MalformedAnswerError } from '../../translate/translate-prompt';

export interface ModelTranslation {
  modelPath: string;
  to: string;
  from?: string;
  style: SubtitleStyle;
  onProgress?(done: number): void;
}

/**
 * Translates cues with the language model at `modelPath`, loaded here if it is not warm: the translation and
 * the tokens generated and the seconds generation took. A model that cannot load or answers malformed JSON fails with a sentence for the user.
 * The dub (src/engine/dub/) translates its cues through this too.
 */
export async function translateWithModel(
  cues: readonly SourceCue[],
  options: ModelTranslation,
): Promise<{ translation: CueTranslation; tokens: number; seconds: number }> {
  try {
    await warmModel(options.modelPath);
  } catch (error) {
    if (error instanceof UserFacingError) throw error;
    throw new UserFacingError(
      `The language model ${path.basename(options.modelPath)} could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let tokens = 0;
  const started = Date.now();
  const translation = await translateCues(cues, {
    to: options.to,
    ...(options.from ? { from: options.from } : {}),
    style: options.style,
    ask: async (prompt, schema) => {
      const answer = await answerAsJson(
        options.modelPath,
        prompt,
        schema,
        tokensFor(schema.properties.translation.maxLength),
      );
      tokens += answer.tokens;
      return answer.text;
    },
    ...(options.onProgress ? { onProgress: (done: number) => options.onProgress?.(done) } : {}),
  }).catch((error: unknown) => {
    if (error instanceof MalformedAnswerError)
      throw new UserFacingError(`${error.message}. The translation stopped; try again or choose another model.`);
    throw error;
  });
  return { translation, tokens, seconds: Math.max((Date.now() - started) / 1000, 0.001) };
}

/** Tokens one answer may take: each character of the bound may be a 6-character JSON escape, plus the JSON around it. */
const tokensFor = (maxLength: number): number => maxLength * 6 + 64;

export async function runTranslateTask(
  task: TranslateTask,
  report: ProgressReporter,
): Promise<TaskOutcome<TranslateResult>> {
  report('decoding', 1);
  const source = (await readFile(task.inputPath, 'utf8')).replace(/^\uFEFF/, '');
  const cues = parseSubtitles(source, task.format);
  report('loading_model', 3);
  const { translation, tokens, seconds } = await translateWithModel(cues, {
    ...task,
    onProgress: (done) => report('translating', 5 + Math.floor(done * 93)),
  });
  report('encoding', 99);
  const text = task.format === 'vtt' ? formatVtt(translation.cues) : formatSrt(translation.cues);
  const partial = `${task.outputPath}.partial`;
  try {
    await writeFile(partial, text, 'utf8');
    await rename(partial, task.outputPath);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return {
    backend: LLM_BACKEND,
    result: {
      outputPath: task.outputPath,
      cues: translation.cues.length,
      shortened: translation.shortened,
      flagged: translation.flagged,
      tokens,
      tokensPerSecond: Math.round((tokens / seconds) * 10) / 10,
      model: path.basename(task.modelPath),
    },
  };
}
