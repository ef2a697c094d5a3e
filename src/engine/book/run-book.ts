/**
 * Runs a book job in the engine process: each paragraph of the plan is synthesized as a TTS task (checked by
 * the engine's own task check) or taken from the re-export cache, each chapter is joined and encoded once
 * (or taken from the cache), and the chapters become the book. With verified takes each paragraph is heard
 * back and retaken while it reads wrong (verified-take.ts), and the takes report is written beside the book.
 * Progress counts characters read; the book appears only when complete (`<out>.partial`, then a rename), and
 * cancelling ends this process, after which the job service's caller removes the partial file.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AudioCache, audiobookCacheDir, cacheKey } from '../../audiobook/audio-cache';
import {
  wordTimingLabel,
  PARAGRAPH_PAUSE_SECONDS,
  SENTENCE_PAUSE_SECONDS,
  type AcxReport,
  type BookPassage,
  type BookVerify,
  type ParagraphTakes,
  type BookPlan,
  type BookResult,
  type TimedChapter,
} from '../../audiobook/book-plan';
import { entriesIn } from '../../lexicon/apply-lexicon';
import { cachePrunerFor } from '../../util/data-dir-caches';
import {
  UserFacingError,
  type BookTask,
  type ProgressReporter,
  type TaskOutcome,
  type TtsTask,
} from '../../engine-api/protocol';
import { engineConfig } from '../../engine-api/engine-config';
import { checkTask } from '../task-check';
import { runTtsTask } from '../tts/run-tts';
import { masterChapterForAcx } from './acx';
import { ENCODING, encodeChapter, joinWavs, wavLength, writeBook, writeChapterFiles } from './book-audio';
import { writeReadAlongBook, type ReadAlongChapter } from './read-along-book';
import { writeTakesReport } from './takes-report';
import { wordClips, type SpokenWord } from '../../audiobook/read-along/word-clips';
import { verifiedTake } from './verified-take';

/** What decides how a take is heard, for the cache key (the model by name: its folder may move). */
const scorerIdentity = (verify: BookVerify): string =>
  verify.scorer.kind === 'recognizer'
    ? `recognizer ${verify.scorer.model} ${verify.scorer.language}`
    : `aligner ${verify.scorer.language}`;

/** A JSON file an earlier export cached beside a passage's audio, when it is still there and `valid` accepts it. */
async function readCachedJson<T>(
  cache: AudioCache,
  key: string,
  name: string,
  valid: (value: T) => boolean,
): Promise<T | undefined> {
  const file = await cache.get(key, name);
  if (!file) return undefined;
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as T;
    return valid(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

type CachedTakes = Pick<ParagraphTakes, 'takes' | 'kept' | 'passed' | 'skipped'>;

/** A verified paragraph's takes from an earlier export, when the cache still has them. */
const readCachedTakes = (cache: AudioCache, key: string): Promise<CachedTakes | undefined> =>
  readCachedJson<CachedTakes>(
    cache,
    key,
    'takes.json',
    (takes) => Array.isArray(takes.takes) && typeof takes.kept === 'number',
  );

/** A sentence's word times from an earlier export (null: the voice reported none), or undefined when not cached. */
async function readCachedWords(cache: AudioCache, key: string): Promise<SpokenWord[] | null | undefined> {
  const saved = await readCachedJson<{ words: SpokenWord[] | null }>(
    cache,
    key,
    'words.json',
    (value) => value.words === null || Array.isArray(value.words),
  );
  return saved?.words;
}

/** Synthesis takes progress up to here; encoding chapters and joining the book take the rest. */
const SYNTHESIS_SHARE = 90;

/** The task's paths, checked as every task's are: absolute, so the engine never writes relative to its cwd. */
export function checkBookTask(task: Record<string, unknown>): BookTask {
  for (const key of ['planPath', 'workDir', 'dataDir'] as const) {
    const value = task[key];
    if (typeof value !== 'string' || !path.isAbsolute(value))
      throw new UserFacingError(`The job cannot run: its ${key} is not an absolute path. Create it again.`);
  }
  return {
    kind: 'book',
    planPath: task.planPath as string,
    workDir: task.workDir as string,
    dataDir: task.dataDir as string,
  };
}

async function readPlan(file: string): Promise<BookPlan> {
  const plan = JSON.parse(await readFile(file, 'utf8')) as BookPlan;
  if (
    !Array.isArray(plan.chapters) ||
    !Array.isArray(plan.readings) ||
    typeof plan.out !== 'string' ||
    !path.isAbsolute(plan.out)
  ) {
    throw new UserFacingError('The job cannot run: its book plan is damaged. Export the book again.');
  }
  return plan;
}

/** The silence before a passage: none before a chapter's first, a reader's pause before a paragraph, a shorter one between sentences. */
function pauseBefore(plan: BookPlan, passage: BookPassage, index: number): number {
  if (index === 0) return 0;
  return plan.format === 'epub3' && passage.paragraphStart === false ? SENTENCE_PAUSE_SECONDS : PARAGRAPH_PAUSE_SECONDS;
}

export async function runBookTask(task: BookTask, report: ProgressReporter): Promise<TaskOutcome<BookResult>> {
  const plan = await readPlan(task.planPath);
  const cache = new AudioCache(audiobookCacheDir(task.dataDir));
  await mkdir(cache.dir, { recursive: true });
  const scratch = path.join(task.workDir, 'scratch');
  await mkdir(scratch, { recursive: true });
  const encoding = ENCODING[plan.format];
  const totalCharacters = Math.max(
    1,
    plan.chapters.reduce((sum, c) => sum + c.passages.reduce((s, p) => s + p.text.length, 0), 0),
  );
  let readCharacters = 0;
  let synthesized = 0;
  let reused = 0;
  const ssmlIgnored: Record<string, string> = {};
  report('synthesizing', 0);
  const timed: TimedChapter[] = [];
  const encoded: string[] = [];
  const readAlong: ReadAlongChapter[] = [];
  const acx: AcxReport[] = [];
  /** An M4B mastered for ACX: its chapters, the same mastered sound as the MP3s, as AAC. */
  const masteredBook: string[] = [];
  const verify = plan.verify;
  const paragraphs: ParagraphTakes[] = [];
  const wordTimes = { voice: 0, estimated: 0 };
  for (const [chapterIndex, chapter] of plan.chapters.entries()) {
    const wavs: string[] = [];
    /** Per passage of a word-level read-along book: where the voice said each word (null: it did not say). */
    const spokenWords: Array<SpokenWord[] | null> = [];
    for (const [passageIndex, passage] of chapter.passages.entries()) {
      const placeOf = (said: BookPassage): Pick<ParagraphTakes, 'chapter' | 'chapterTitle' | 'paragraph' | 'text'> => ({
        chapter: chapterIndex + 1,
        chapterTitle: chapter.title,
        paragraph: passageIndex + 1,
        text: said.text,
      });
      const reading = plan.readings[passage.reading];
      if (!reading)
        throw new UserFacingError(
          'The job cannot run: its book plan names a voice it does not list. Export the book again.',
        );
      const lexicon = entriesIn(passage.text, plan.lexicon);
      const sound = {
        voice: reading.voice,
        options: reading.options,
        lexicon,
        text: passage.text,
        ...(passage.ssml ? { ssml: passage.ssml } : {}),
      };
      // A verified paragraph is a different cache entry: its kept take may be a retake, and its takes come with it.
      const verifying = verify && !passage.ssml ? verify : undefined;
      const key = cacheKey(
        verifying
          ? {
              ...sound,
              verify: {
                threshold: verifying.threshold,
                retakes: verifying.retakes,
                scorer: scorerIdentity(verifying),
                corruptFirst: verifying.corruptFirstTake === true,
              },
            }
          : sound,
      );
      let wav = await cache.get(key, 'wav');
      const cachedTakes = verifying && wav ? await readCachedTakes(cache, key) : undefined;
      // Word times come with the synthesis: audio cached without them (a sentence-level export) is made again.
      const timingWords = plan.overlay === 'word' && (passage.words?.length ?? 0) > 0;
      let spoken = timingWords && wav ? await readCachedWords(cache, key) : undefined;
      if (wav && (!verifying || cachedTakes) && (!timingWords || spoken !== undefined)) {
        reused++;
        if (cachedTakes) paragraphs.push({ ...placeOf(passage), ...cachedTakes, audio: wav });
      } else {
        const start = readCharacters;
        const takeWords = new Map<string, SpokenWord[]>();
        const synthesize = async (take: number, speed: number): Promise<string> => {
          const textPath = path.join(scratch, `${key}-${take}.txt`);
          const outputPath = path.join(scratch, `${key}-${take}.wav`);
          await writeFile(textPath, passage.text, 'utf8');
          const checked = await checkTask({
            kind: 'tts',
            textPath,
            outputPath,
            options: { ...reading.options, speed },
            voice: reading.voice,
            ...(lexicon.length ? { lexicon } : {}),
            ...(passage.ssml ? { ssml: passage.ssml } : {}),
          } satisfies TtsTask);
          // Retakes report no progress of their own: the paragraph's share was counted by its first take.
          // A voice's failure names the chapter and paragraph it failed in: a long book has many.
          const outcome = await runTtsTask(
            checked as TtsTask,
            (_phase, progress) => {
              if (take === 1)
                report(
                  'synthesizing',
                  ((start + (passage.text.length * progress) / 100) / totalCharacters) * SYNTHESIS_SHARE,
                );
            },
            timingWords ? { onWords: (words) => takeWords.set(outputPath, words) } : {},
          ).catch((error: unknown) => {
            throw new UserFacingError(
              `Chapter ${chapterIndex + 1} "${chapter.title}", paragraph ${passageIndex + 1}: ${error instanceof Error ? error.message : String(error)}`,
            );
          });
          for (const [option, reason] of Object.entries(outcome.result.ignoredOptions))
            if (option.startsWith('ssml ')) ssmlIgnored[option] ??= reason;
          await rm(textPath, { force: true });
          return outputPath;
        };
        let kept: string;
        if (verifying) {
          const taken = await verifiedTake(passage.text, verifying, synthesize, reading.options.speed);
          const takes = {
            takes: taken.takes,
            kept: taken.kept,
            passed: taken.passed,
            ...(taken.unjudged ? { skipped: taken.unjudged } : {}),
          };
          const takesFile = path.join(scratch, `${key}.takes.json`);
          await writeFile(takesFile, JSON.stringify(takes), 'utf8');
          await cache.put(key, 'takes.json', takesFile);
          kept = taken.wav;
          wav = await cache.put(key, 'wav', kept);
          paragraphs.push({ ...placeOf(passage), ...takes, audio: wav });
        } else {
          kept = await synthesize(1, reading.options.speed);
          wav = await cache.put(key, 'wav', kept);
        }
        if (timingWords) {
          spoken = takeWords.get(kept) ?? null;
          const wordsFile = path.join(scratch, `${key}.words.json`);
          await writeFile(wordsFile, JSON.stringify({ words: spoken }), 'utf8');
          await cache.put(key, 'words.json', wordsFile);
        }
        synthesized++;
      }
      spokenWords.push(spoken ?? null);
      if (verify && !verifying)
        paragraphs.push({
          ...placeOf(passage),
          takes: [],
          kept: 1,
          passed: true,
          audio: wav,
          skipped: 'SSML markup is not the words said',
        });
      readCharacters += passage.text.length;
      report('synthesizing', (readCharacters / totalCharacters) * SYNTHESIS_SHARE);
      wavs.push(wav);
    }
    const pauses = chapter.passages.map((passage, index) => pauseBefore(plan, passage, index));
    // Each passage's span of the chapter, counted in frames as the join writes them: the overlays' clips.
    let frames = 0;
    let rate = 1;
    const clips: ReadAlongChapter['clips'] = [];
    for (const [index, wav] of wavs.entries()) {
      const length = await wavLength(wav);
      rate = length.sampleRate;
      frames += Math.round(pauses[index] * rate);
      const { anchor, words, text } = chapter.passages[index];
      if (anchor) {
        const begin = frames / rate;
        const timed =
          plan.overlay === 'word' && words?.length
            ? wordClips(text, words, spokenWords[index], length.frames / rate)
            : undefined;
        if (timed) wordTimes[spokenWords[index] ? 'voice' : 'estimated']++;
        const end = (frames + length.frames) / rate;
        // The last word ends exactly where its sentence does (word times are whole milliseconds).
        const wordSpans = timed?.map((word, at) => ({
          id: word.id,
          begin: begin + word.begin,
          end: at === timed.length - 1 ? end : Math.min(end, begin + word.end),
        }));
        clips.push({
          document: anchor.document,
          id: anchor.id,
          begin,
          end,
          ...(wordSpans ? { words: wordSpans } : {}),
        });
      }
      frames += length.frames;
    }
    const seconds = frames / rate;
    if (plan.master === 'acx') {
      // Mastering measures the file it wrote, so its report comes with the file: no chapter cache here.
      report('encoding', (readCharacters / totalCharacters) * SYNTHESIS_SHARE);
      const joined = path.join(scratch, `chapter-${timed.length + 1}.wav`);
      await joinWavs(wavs, joined, pauses);
      const mastered = path.join(scratch, `chapter-${timed.length + 1}.mp3`);
      const bookChapter = plan.acxFolder ? path.join(scratch, `chapter-${timed.length + 1}.m4a`) : undefined;
      const chapterReport = await masterChapterForAcx(joined, mastered, scratch, bookChapter);
      await rm(joined, { force: true });
      acx.push(chapterReport);
      timed.push({
        title: chapter.title,
        seconds: seconds + chapterReport.headToneSeconds + chapterReport.tailToneSeconds,
      });
      encoded.push(mastered);
      if (bookChapter) masteredBook.push(bookChapter);
      continue;
    }
    const chapterKey = cacheKey({
      format: plan.format,
      pause: PARAGRAPH_PAUSE_SECONDS,
      ...(plan.format === 'epub3' ? { pauses } : {}),
      wavs: wavs.map((file) => path.basename(file)),
    });
    let chapterAudio = await cache.get(chapterKey, encoding.extension);
    if (!chapterAudio) {
      report('encoding', (readCharacters / totalCharacters) * SYNTHESIS_SHARE);
      const joined = path.join(scratch, `${chapterKey}.wav`);
      await joinWavs(wavs, joined, pauses);
      const encodedPath = path.join(scratch, `${chapterKey}.${encoding.extension}`);
      await encodeChapter(joined, encodedPath, plan.format, scratch);
      await rm(joined, { force: true });
      chapterAudio = await cache.put(chapterKey, encoding.extension, encodedPath);
    }
    timed.push({ title: chapter.title, seconds });
    encoded.push(chapterAudio);
    readAlong.push({ audioFile: chapterAudio, clips });
  }
  report('encoding', SYNTHESIS_SHARE);
  const book = { ...(plan.title ? { title: plan.title } : {}), ...(plan.author ? { author: plan.author } : {}) };
  // ACX's chapter MP3s are written first: an M4B mastered for ACX names them in its report.
  const acxFiles = plan.acxFolder ? await writeChapterFiles(book, timed, encoded, plan.acxFolder) : undefined;
  const files = plan.readAlong
    ? await writeReadAlongBook(
        plan.readAlong,
        readAlong,
        plan.out,
        plan.overlay === 'word' ? wordTimingLabel(wordTimes) : undefined,
      )
    : plan.perChapter
      ? await writeChapterFiles(book, timed, encoded, plan.out)
      : await writeBook(book, timed, acxFiles ? masteredBook : encoded, plan.out, plan.format, scratch);
  const acxChapterFiles = acxFiles ?? files;
  // The scratch folder goes first: while it is there, the cache counts as being written and is left alone.
  await rm(scratch, { recursive: true, force: true });
  await cachePrunerFor(task.dataDir, engineConfig().cacheLimits).prune('audiobook');
  const verified = verify ? await writeTakesReport(plan.out, verify, paragraphs) : undefined;
  return {
    backend: 'audiobook',
    result: {
      ...(verified ? { verify: verified } : {}),
      chapters: timed,
      synthesized,
      reused,
      files: acxFiles ? [...files, ...acxFiles] : files,
      ...(plan.master === 'acx'
        ? {
            acx: acx.map((chapterReport, index) => ({
              ...chapterReport,
              file: acxChapterFiles[index] ?? chapterReport.file,
            })),
          }
        : {}),
      ...(Object.keys(ssmlIgnored).length ? { ignoredOptions: ssmlIgnored } : {}),
      ...(plan.overlay === 'word' ? { wordTimes } : {}),
    },
  };
}
