/**
 * Turns a Markdown manuscript (a file, or a folder of .md files in name order) into one audiobook: each
 * chapter is synthesized by the TTS engine (with the data directory's lexicon) to WAV, then ffmpeg (system or
 * WebAssembly) joins them
 * into an M4B (AAC) or MP3 with a chapter marker per chapter and the front matter's title and author.
 * The book appears only when it is complete; cancelling or failing leaves no partial book behind.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compileValidators } from '../contract/validation';
import { toolNotFoundError } from '../engine/media/ffmpeg';
import { isWasmMedia, mediaToolchain } from '../engine/media/media-toolchain';
import { startWasmFfmpeg } from '../engine/media/wasm-ffmpeg';
import type { TtsTask } from '../engine/protocol';
import { runTtsTask } from '../engine/tts/run-tts';
import { readyVoice } from '../jobs/admission';
import { readLexicon } from '../lexicon/lexicon-file';
import { createVoiceLibrary } from '../voices/library';
import { voiceIdFor } from '../voices/voice-id';
import { chapterMetadata, type TimedChapter } from './chapter-metadata';
import { parseManuscript, type Chapter } from './manuscript';

export type AudiobookFormat = 'm4b' | 'mp3';

export interface AudiobookOptions {
  input: string;
  out: string;
  format: AudiobookFormat;
  dataDir: string;
  voiceId?: string;
  /** Heading level that starts a chapter; the manuscript's top level when absent. */
  chapterLevel?: number;
  onProgress(line: string): void;
  signal: AbortSignal;
}

const DEFAULT_VOICE = voiceIdFor('espeak-ng', 'gmw/en-US');
const SAMPLE_RATE = 44100;

export class AudiobookCancelled extends Error {
  constructor() {
    super('Cancelled; no book was written.');
    this.name = 'AudiobookCancelled';
  }
}

/** The manuscript's chapters, in reading order, with the first title and author the files give. */
async function readManuscript(input: string, chapterLevel?: number) {
  const files = (await stat(input)).isDirectory()
    ? (await readdir(input)).filter((name) => name.toLowerCase().endsWith('.md'))
      .sort((a, b) => a.localeCompare(b, undefined, { numeric: true })).map((name) => path.join(input, name))
    : [input];
  const chapters: Chapter[] = [];
  let title: string | undefined;
  let author: string | undefined;
  for (const file of files) {
    const book = parseManuscript(await readFile(file, 'utf8'), path.basename(file, path.extname(file)), chapterLevel);
    title ??= book.title;
    author ??= book.author;
    chapters.push(...book.chapters);
  }
  if (chapters.length === 0) throw new Error(`${input} has no text to read.`);
  return { title, author, chapters };
}

export async function exportAudiobook(options: AudiobookOptions): Promise<{ chapters: TimedChapter[] }> {
  const { signal, onProgress } = options;
  const book = await readManuscript(options.input, options.chapterLevel);
  const voice = readyVoice(createVoiceLibrary({ dataDir: options.dataDir }), options.voiceId ?? DEFAULT_VOICE);
  const checked = compileValidators().ttsRequest({ voiceId: voice.voice.id, text: '-', outputFormat: 'wav', sampleRate: SAMPLE_RATE });
  if (!checked.ok) throw new Error(checked.message);
  const { text: _text, ...ttsOptions } = checked.value;
  const lexicon = (await readLexicon(options.dataDir)).entries;

  const out = path.resolve(options.out);
  const work = await mkdtemp(path.join(path.dirname(out), '.audiobook-'));
  const partial = `${out}.partial`;
  try {
    const timed: TimedChapter[] = [];
    const wavs: string[] = [];
    for (const [index, chapter] of book.chapters.entries()) {
      const where = `Chapter ${index + 1}/${book.chapters.length} "${chapter.title}"`;
      const textPath = path.join(work, `chapter-${index + 1}.txt`);
      const outputPath = path.join(work, `chapter-${index + 1}.wav`);
      await writeFile(textPath, chapter.text, 'utf8');
      const task: TtsTask = { kind: 'tts', textPath, outputPath, options: ttsOptions, voice: voice.ref, ...(lexicon.length ? { lexicon } : {}) };
      let shown = -10;
      const outcome = await runTtsTask(task, (_phase, progress) => {
        if (signal.aborted) throw new AudiobookCancelled();
        if (progress >= shown + 10) onProgress(`${where}: ${Math.floor((shown = progress))}%`);
      });
      if (signal.aborted) throw new AudiobookCancelled();
      onProgress(`${where}: done, ${outcome.result.durationSeconds.toFixed(1)} s`);
      timed.push({ title: chapter.title, seconds: outcome.result.durationSeconds });
      wavs.push(outputPath);
    }
    onProgress(`Encoding ${options.format.toUpperCase()}…`);
    const codec = options.format === 'm4b' ? ['-c:a', 'aac', '-b:a', '64k', '-f', 'mp4'] : ['-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3'];
    const tools = mediaToolchain();
    const join = (list: string, metadata: string, output: string): string[] => ['-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'concat', '-safe', '0', '-i', list, '-i', metadata, '-map', '0:a', '-map_metadata', '1', '-map_chapters', '1', ...codec, output];
    const listing = (files: string[]): string => files.map((file) => `file '${file.replace(/'/g, "'\\''")}'`).join('\n');
    if (isWasmMedia(tools)) {
      // The WebAssembly ffmpeg sees the chapters as /in/N, the list and metadata as /text0 and /text1.
      const wasmList = listing(wavs.map((_, index) => `/in/${index}`));
      await wasmJoin(join('/text0', '/text1', '/out/0'), wavs, [wasmList, chapterMetadata(book, timed)], partial, signal);
    } else {
      const list = path.join(work, 'chapters.txt');
      await writeFile(list, listing(wavs), 'utf8');
      const metadata = path.join(work, 'metadata.txt');
      await writeFile(metadata, chapterMetadata(book, timed), 'utf8');
      await ffmpeg(tools.ffmpeg, join(list, metadata, partial), signal);
    }
    await rename(partial, out);
    onProgress(`Wrote ${out}: ${timed.length} chapters.`);
    return { chapters: timed };
  } catch (error) {
    await rm(partial, { force: true });
    throw signal.aborted ? new AudiobookCancelled() : error;
  } finally {
    await rm(work, { recursive: true, force: true });
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

async function wasmJoin(args: string[], inputs: string[], textInputs: string[], output: string, signal: AbortSignal): Promise<void> {
  const run = await startWasmFfmpeg({ program: 'ffmpeg', args, inputs, textInputs, outputs: [output] });
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
