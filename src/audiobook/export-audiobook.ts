/**
 * Turns a Markdown manuscript (a file, or a folder of .md files in name order) into an audiobook: each
 * paragraph is synthesized by the TTS engine (with the data directory's lexicon) in the voice its speaker
 * tags choose, each chapter is encoded once, and ffmpeg (system or WebAssembly) joins the chapters into one M4B (AAC) or MP3 with a
 * chapter marker per chapter and the front matter's title and author, or writes one MP3 per chapter.
 * Paragraphs and chapters come from the re-export cache when nothing that decides their sound changed.
 * The book appears only when it is complete; cancelling or failing leaves no partial book behind.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compileValidators } from '../contract/validation';
import type { LexiconEntry, TtsRequest } from '../contract/types';
import { readWavInfo, readWavSamples } from '../engine/audio/wav-reader';
import { WavWriter } from '../engine/audio/wav-writer';
import { toolNotFoundError } from '../engine/media/ffmpeg';
import { isWasmMedia, mediaToolchain } from '../engine/media/media-toolchain';
import { startWasmFfmpeg } from '../engine/media/wasm-ffmpeg';
import type { TtsTask } from '../engine/protocol';
import { runTtsTask } from '../engine/tts/run-tts';
import { readyVoice } from '../jobs/admission';
import { entriesIn } from '../lexicon/apply-lexicon';
import { readLexicon } from '../lexicon/lexicon-file';
import { createVoiceLibrary, type VoiceLibrary } from '../voices/library';
import type { VoiceEntry } from '../voices/voice-entry';
import { defaultVoice } from '../voices/default-voice';
import { cachePrunerFor } from '../util/data-dir-caches';
import { AudioCache, audiobookCacheDir, cacheKey } from './audio-cache';
import { chapterMetadata, type TimedChapter } from './chapter-metadata';
import { parseManuscript, type Chapter } from './manuscript';
import { chapterPassages, parseSpeakerList } from './passages';

export type AudiobookFormat = 'm4b' | 'mp3';

export interface AudiobookOptions {
  input: string;
  /** The book to write; with `perChapter`, the folder that gets one MP3 per chapter. */
  out: string;
  format: AudiobookFormat;
  dataDir: string;
  voiceId?: string;
  /** Heading level that starts a chapter; the manuscript's top level when absent. */
  chapterLevel?: number;
  /** Names of `Name:` prefixes → voice ids or names; added to the front matter's `speakers:`. */
  speakers?: Record<string, string>;
  /** MP3 only: one file per chapter in the folder `out`, instead of one book. */
  perChapter?: boolean;
  onProgress(line: string): void;
  signal: AbortSignal;
}

export interface AudiobookResult {
  chapters: TimedChapter[];
  /** Paragraphs synthesized now, and those the cache already had. */
  synthesized: number;
  reused: number;
  /** What was written: the book, or the chapter files. */
  files: string[];
}

const SAMPLE_RATE = 44100;
/** The silence between two paragraphs, as a reader pauses. */
const PARAGRAPH_PAUSE_SECONDS = 0.6;
const ENCODING = { m4b: { extension: 'm4a', codec: ['-c:a', 'aac', '-b:a', '64k', '-f', 'ipod'] }, mp3: { extension: 'mp3', codec: ['-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3'] } };

export class AudiobookCancelled extends Error {
  constructor() {
    super('Cancelled; no book was written.');
    this.name = 'AudiobookCancelled';
  }
}

/** The manuscript's chapters, in reading order, with the first title, author and speakers the files give. */
async function readManuscript(input: string, chapterLevel?: number) {
  const files = (await stat(input)).isDirectory()
    ? (await readdir(input)).filter((name) => name.toLowerCase().endsWith('.md'))
      .sort((a, b) => a.localeCompare(b, undefined, { numeric: true })).map((name) => path.join(input, name))
    : [input];
  const chapters: Chapter[] = [];
  let title: string | undefined;
  let author: string | undefined;
  const speakers: Record<string, string> = {};
  for (const file of files) {
    const book = parseManuscript(await readFile(file, 'utf8'), path.basename(file, path.extname(file)), chapterLevel);
    title ??= book.title;
    author ??= book.author;
    Object.assign(speakers, parseSpeakerList(book.speakers));
    chapters.push(...book.chapters);
  }
  if (chapters.length === 0) throw new Error(`${input} has no text to read.`);
  return { title, author, speakers, chapters };
}

/** A voice by id, or by its name (case-insensitive), that is ready to speak. */
function findVoice(library: VoiceLibrary, idOrName: string): VoiceEntry {
  if (library.get(idOrName)) return readyVoice(library, idOrName);
  const wanted = idOrName.trim().toLowerCase();
  for (let page = 1; ; page++) {
    const found = library.list({ scope: 'all', sortBy: 'name', sortDirection: 'asc', page, limit: 100, search: idOrName });
    const match = found.items.find((voice) => voice.name.toLowerCase() === wanted);
    if (match) return readyVoice(library, match.id);
    if (page >= found.meta.totalPages) throw new Error(`No voice "${idOrName}" in the voice library (an id or a name from GET /voices).`);
  }
}

/** Everything a paragraph's sound depends on besides its text. */
interface Reading {
  voice: VoiceEntry;
  options: Omit<TtsRequest, 'text'>;
  lexicon: readonly LexiconEntry[];
}

/** A WAV file's length from its header alone: a re-export reads no audio it does not re-encode. */
async function wavSeconds(file: string): Promise<number> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const info = readWavInfo(head.subarray(0, bytesRead));
    return info.frames / info.sampleRate;
  } finally {
    await handle.close();
  }
}

export async function exportAudiobook(options: AudiobookOptions): Promise<AudiobookResult> {
  const { signal, onProgress } = options;
  if (options.perChapter && options.format !== 'mp3') throw new Error('One file per chapter is made as MP3; use --format mp3.');
  if (options.perChapter) await checkChapterFolder(path.resolve(options.out));
  const book = await readManuscript(options.input, options.chapterLevel);
  const speakers = { ...book.speakers, ...options.speakers };
  const library = createVoiceLibrary({ dataDir: options.dataDir });
  const bookVoice = options.voiceId !== undefined ? findVoice(library, options.voiceId) : defaultVoice(library);
  const voices = new Map<string, VoiceEntry>();
  const voiceFor = (asked: string | undefined): VoiceEntry => {
    if (asked === undefined) return bookVoice;
    if (!voices.has(asked)) voices.set(asked, findVoice(library, asked));
    return voices.get(asked)!;
  };
  const lexicon = (await readLexicon(options.dataDir)).entries;
  // Validators compile once, and each voice's reading is built once: an export reads hundreds of paragraphs.
  const validators = compileValidators();
  const readings = new Map<string, Reading>();
  const readingOf = (voice: VoiceEntry): Reading => {
    const known = readings.get(voice.voice.id);
    if (known) return known;
    const checked = validators.ttsRequest({ voiceId: voice.voice.id, text: '-', outputFormat: 'wav', sampleRate: SAMPLE_RATE });
    if (!checked.ok) throw new Error(checked.message);
    const { text: _text, ...ttsOptions } = checked.value;
    const reading = { voice, options: ttsOptions, lexicon };
    readings.set(voice.voice.id, reading);
    return reading;
  };

  const cache = new AudioCache(audiobookCacheDir(options.dataDir));
  await mkdir(cache.dir, { recursive: true });
  // Synthesis happens beside the cache, so a finished paragraph moves into it without a copy.
  const scratch = await mkdtemp(path.join(cache.dir, '.export-'));
  const out = path.resolve(options.out);
  const partial = `${out}.partial`;
  const encoding = ENCODING[options.format];
  let synthesized = 0;
  let reused = 0;
  try {
    const timed: TimedChapter[] = [];
    const encoded: string[] = [];
    let carriedVoice: string | undefined;
    for (const [index, chapter] of book.chapters.entries()) {
      const where = `Chapter ${index + 1}/${book.chapters.length} "${chapter.title}"`;
      const { passages, endVoice } = chapterPassages(chapter.text, speakers, carriedVoice);
      carriedVoice = endVoice;
      const wavs: string[] = [];
      let shown = -10;
      let fromCache = 0;
      for (const [at, passage] of passages.entries()) {
        const reading = readingOf(voiceFor(passage.voice));
        const key = cacheKey({
          voice: reading.voice.ref, options: reading.options, lexicon: entriesIn(passage.text, reading.lexicon), text: passage.text,
        });
        let wav = await cache.get(key, 'wav');
        if (wav) {
          fromCache++;
        } else {
          const textPath = path.join(scratch, `${key}.txt`);
          const outputPath = path.join(scratch, `${key}.wav`);
          await writeFile(textPath, passage.text, 'utf8');
          const task: TtsTask = {
            kind: 'tts', textPath, outputPath, options: reading.options, voice: reading.voice.ref, ...(lexicon.length ? { lexicon } : {}),
          };
          await runTtsTask(task, (_phase, progress) => {
            if (signal.aborted) throw new AudiobookCancelled();
            const overall = ((at + progress / 100) / passages.length) * 100;
            if (overall >= shown + 10) onProgress(`${where}: ${Math.floor((shown = overall))}%`);
          });
          wav = await cache.put(key, 'wav', outputPath);
        }
        if (signal.aborted) throw new AudiobookCancelled();
        wavs.push(wav);
      }
      synthesized += passages.length - fromCache;
      reused += fromCache;
      const chapterKey = cacheKey({ format: options.format, pause: PARAGRAPH_PAUSE_SECONDS, wavs: wavs.map((file) => path.basename(file)) });
      let seconds = 0;
      for (const wav of wavs) seconds += await wavSeconds(wav);
      seconds += PARAGRAPH_PAUSE_SECONDS * Math.max(0, wavs.length - 1);
      let chapterAudio = await cache.get(chapterKey, encoding.extension);
      if (!chapterAudio) {
        const joined = path.join(scratch, `${chapterKey}.wav`);
        await joinWavs(wavs, joined);
        const encodedPath = path.join(scratch, `${chapterKey}.${encoding.extension}`);
        await runFfmpeg({ inputs: [joined], outputs: [encodedPath] },
          (names) => ['-hide_banner', '-loglevel', 'error', '-y', '-i', names.input(0), ...encoding.codec, names.output(0)], scratch, signal);
        await rm(joined, { force: true });
        chapterAudio = await cache.put(chapterKey, encoding.extension, encodedPath);
      }
      onProgress(`${where}: done, ${seconds.toFixed(1)} s`);
      if (fromCache > 0) onProgress(`${where}: ${fromCache} of ${passages.length} paragraphs from the cache`);
      timed.push({ title: chapter.title, seconds });
      encoded.push(chapterAudio);
    }
    if (signal.aborted) throw new AudiobookCancelled();
    const files = options.perChapter
      ? await writeChapterFiles(book, timed, encoded, out, signal)
      : await writeBook(book, timed, encoded, out, partial, scratch, options.format, signal, onProgress);
    onProgress(`Wrote ${out}: ${timed.length} chapters.`);
    onProgress(`${synthesized} paragraphs synthesized, ${reused} from the cache.`);
    // The scratch folder goes first: while it is there, the cache counts as being written and is left alone.
    await rm(scratch, { recursive: true, force: true });
    await cachePrunerFor(options.dataDir).prune('audiobook');
    return { chapters: timed, synthesized, reused, files };
  } catch (error) {
    await rm(partial, { recursive: true, force: true });
    throw signal.aborted ? new AudiobookCancelled() : error;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The paragraphs' WAVs as one, a reader's pause between them (all share the job's sample rate). */
async function joinWavs(wavs: readonly string[], target: string): Promise<void> {
  const first = readWavInfo(await readFile(wavs[0]));
  const writer = await WavWriter.create(target, { sampleRate: first.sampleRate, channels: 1 });
  try {
    for (const [index, wav] of wavs.entries()) {
      if (index > 0) await writer.writeSilence(Math.round(PARAGRAPH_PAUSE_SECONDS * first.sampleRate));
      const { info, samples } = readWavSamples(await readFile(wav));
      const mono = info.channels === 1 ? samples : samples.filter((_, i) => i % info.channels === 0);
      await writer.write(mono);
    }
  } finally {
    await writer.close();
  }
}

/** One M4B or MP3: the encoded chapters joined without re-encoding, with the chapter markers and metadata. */
async function writeBook(
  book: { title?: string; author?: string },
  timed: readonly TimedChapter[],
  encoded: readonly string[],
  out: string,
  partial: string,
  scratch: string,
  format: AudiobookFormat,
  signal: AbortSignal,
  onProgress: (line: string) => void,
): Promise<string[]> {
  const listing = (names: FfmpegNames): string =>
    encoded.map((_, index) => `file '${names.input(index).replace(/'/g, "'\\''")}'`).join('\n');
  onProgress(`Joining ${format.toUpperCase()}…`);
  await runFfmpeg(
    { inputs: encoded, texts: (names) => [listing(names), chapterMetadata(book, timed)], outputs: [partial] },
    (names) => ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', names.text(0), '-i', names.text(1),
      '-map', '0:a', '-map_metadata', '1', '-map_chapters', '1', '-c', 'copy', '-f', format === 'm4b' ? 'mp4' : 'mp3', names.output(0)],
    scratch, signal);
  await rename(partial, out);
  return [out];
}

/** Whether `out` may take a new export: absent, or a folder of an earlier one (nothing but .mp3 files). */
async function checkChapterFolder(out: string): Promise<void> {
  const names = await readdir(out).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    if (error.code === 'ENOTDIR') throw new Error(`${out} is a file; one MP3 per chapter needs a folder.`);
    throw error;
  });
  if (names.some((name) => !name.toLowerCase().endsWith('.mp3'))) {
    throw new Error(`${out} holds files other than an earlier export's MP3s; choose a new folder.`);
  }
}

/** One MP3 per chapter in the folder `out` (`01 Title.mp3`), tagged with title, track, album and artist. */
async function writeChapterFiles(
  book: { title?: string; author?: string },
  timed: readonly TimedChapter[],
  encoded: readonly string[],
  out: string,
  signal: AbortSignal,
): Promise<string[]> {
  const folder = `${out}.partial`;
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  const digits = String(timed.length).length;
  const names: string[] = [];
  for (const [index, chapter] of timed.entries()) {
    const safeTitle = chapter.title.replace(/[\\/:*?"<>|\u0000-\u001f]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 80);
    const name = `${String(index + 1).padStart(Math.max(2, digits), '0')} ${safeTitle || 'Chapter'}.mp3`;
    const tags = ['-metadata', `title=${chapter.title}`, '-metadata', `track=${index + 1}/${timed.length}`];
    if (book.title) tags.push('-metadata', `album=${book.title}`);
    if (book.author) tags.push('-metadata', `artist=${book.author}`, '-metadata', `album_artist=${book.author}`);
    await runFfmpeg({ inputs: [encoded[index]], outputs: [path.join(folder, name)] },
      (names) => ['-hide_banner', '-loglevel', 'error', '-y', '-i', names.input(0), '-map', '0:a', '-c', 'copy', ...tags, '-id3v2_version', '3', '-f', 'mp3', names.output(0)],
      folder, signal);
    names.push(name);
  }
  await checkChapterFolder(out);
  await rm(out, { recursive: true, force: true });
  await rename(folder, out);
  return names.map((name) => path.join(out, name));
}

/** The files an ffmpeg run reads and writes, by how that run names them. */
interface FfmpegNames {
  input(index: number): string;
  text(index: number): string;
  output(index: number): string;
}

/**
 * Runs ffmpeg on files with the toolchain in use: the system executable with the real paths, or the
 * WebAssembly build, which sees the inputs as /in/N, the texts as /textN and the outputs as /out/N.
 */
async function runFfmpeg(
  files: { inputs: readonly string[]; texts?: (names: FfmpegNames) => string[]; outputs: readonly string[] },
  args: (names: FfmpegNames) => string[],
  scratch: string,
  signal: AbortSignal,
): Promise<void> {
  const tools = mediaToolchain();
  if (isWasmMedia(tools)) {
    const names: FfmpegNames = { input: (i) => `/in/${i}`, text: (i) => `/text${i}`, output: (i) => `/out/${i}` };
    await wasmFfmpeg(args(names), [...files.inputs], files.texts?.(names) ?? [], [...files.outputs], signal);
    return;
  }
  const textPaths: string[] = [];
  const names: FfmpegNames = { input: (i) => files.inputs[i], text: (i) => textPaths[i], output: (i) => files.outputs[i] };
  for (const [index, text] of (files.texts?.(names) ?? []).entries()) {
    textPaths[index] = path.join(scratch, `ffmpeg-text-${index}-${Date.now()}.txt`);
    await writeFile(textPaths[index], text, 'utf8');
  }
  try {
    await ffmpeg(tools.ffmpeg, args(names), signal);
  } finally {
    await Promise.all(textPaths.map((file) => rm(file, { force: true })));
  }
}

function ffmpeg(executable: string, args: string[], signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { stdio: ['ignore', 'ignore', 'pipe'], signal });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? toolNotFoundError('ffmpeg') : error));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg failed: ${stderr.trim().split('\n').pop() ?? code}`))));
  });
}

async function wasmFfmpeg(args: string[], inputs: string[], textInputs: string[], outputs: string[], signal: AbortSignal): Promise<void> {
  const run = await startWasmFfmpeg({ program: 'ffmpeg', args, inputs, textInputs, outputs });
  const stop = (): void => void run.abort();
  signal.addEventListener('abort', stop, { once: true });
  try {
    const { code, stderr } = await run.done;
    if (signal.aborted) throw new AudiobookCancelled();
    if (code !== 0) throw new Error(`ffmpeg failed: ${stderr.trim().split('\n').pop() ?? code}`);
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
