/**
 * The audio plumbing of a book export, all streamed so memory stays bounded whatever a paragraph's or a
 * chapter's length: paragraph WAVs joined block by block into a chapter WAV, ffmpeg (system or WebAssembly)
 * encoding a chapter and joining encoded chapters into the book without re-encoding.
 */
import { spawn } from 'node:child_process';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { checkChapterFolder } from '../../audiobook/book-output';
import { chapterMetadata } from '../../audiobook/chapter-metadata';
import { PARAGRAPH_PAUSE_SECONDS, type AudiobookFormat, type TimedChapter } from '../../audiobook/book-plan';
import { readWavInfo, type WavInfo } from '../../audio/wav-reader';
import { WavWriter } from '../audio/wav-writer';
import { toolNotFoundError } from '../media/ffmpeg';
import { isWasmMedia, mediaToolchain } from '../media/media-toolchain';
import { startWasmFfmpeg } from '../media/wasm-ffmpeg';
import { UserFacingError } from '../../engine-api/protocol';

export const ENCODING = {
  m4b: { extension: 'm4a', codec: ['-c:a', 'aac', '-b:a', '64k', '-f', 'ipod'] },
  mp3: { extension: 'mp3', codec: ['-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3'] },
  // A read-along book's chapter audio: AAC in MP4 (audio/mp4), an EPUB 3 core media type.
  epub3: { extension: 'm4a', codec: ['-c:a', 'aac', '-b:a', '64k', '-f', 'ipod'] },
} as const;

/** Samples read from a paragraph's WAV at a time: 1 MiB, however long the paragraph. */
const BLOCK_BYTES = 1 << 20;

/** A WAV file's header (the first 4 KiB hold it): a re-export reads no audio it does not re-encode. */
async function wavHeader(file: string): Promise<WavInfo> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return readWavInfo(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** A WAV file's length in frames, and its rate. */
export async function wavLength(file: string): Promise<{ frames: number; sampleRate: number }> {
  const info = await wavHeader(file);
  return { frames: info.frames, sampleRate: info.sampleRate };
}

export async function wavSeconds(file: string): Promise<number> {
  const info = await wavHeader(file);
  return info.frames / info.sampleRate;
}

/** Appends a 16-bit PCM WAV's first channel to `writer`, one block at a time. */
async function appendWav(writer: WavWriter, file: string): Promise<void> {
  const info = await wavHeader(file);
  if (info.format !== 'pcm' || info.bitsPerSample !== 16)
    throw new UserFacingError(`The paragraph audio ${file} is not 16-bit PCM.`);
  const frameBytes = 2 * info.channels;
  const block = Buffer.alloc(Math.floor(BLOCK_BYTES / frameBytes) * frameBytes);
  const handle = await open(file, 'r');
  try {
    let position = info.dataOffset;
    let left = info.frames * frameBytes;
    while (left > 0) {
      const { bytesRead } = await handle.read(block, 0, Math.min(block.length, left), position);
      if (bytesRead === 0) break;
      const frames = Math.floor(bytesRead / frameBytes);
      const mono = new Int16Array(frames);
      for (let i = 0; i < frames; i++) mono[i] = block.readInt16LE(i * frameBytes);
      await writer.write(mono);
      position += bytesRead;
      left -= bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/**
 * The paragraphs' WAVs as one, a reader's pause between them (all share the book's sample rate), or the
 * pause `pausesBefore[i]` seconds before the i-th.
 */
export async function joinWavs(
  wavs: readonly string[],
  target: string,
  pausesBefore?: readonly number[],
): Promise<void> {
  const first = await wavHeader(wavs[0]);
  const writer = await WavWriter.create(target, { sampleRate: first.sampleRate, channels: 1 });
  try {
    for (const [index, wav] of wavs.entries()) {
      const pause = pausesBefore ? pausesBefore[index] : index > 0 ? PARAGRAPH_PAUSE_SECONDS : 0;
      if (pause > 0) await writer.writeSilence(Math.round(pause * first.sampleRate));
      await appendWav(writer, wav);
    }
  } finally {
    await writer.close();
  }
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
export async function runFfmpeg(
  files: { inputs: readonly string[]; texts?: (names: FfmpegNames) => string[]; outputs: readonly string[] },
  args: (names: FfmpegNames) => string[],
  scratch: string,
): Promise<void> {
  const tools = mediaToolchain();
  if (isWasmMedia(tools)) {
    const names: FfmpegNames = { input: (i) => `/in/${i}`, text: (i) => `/text${i}`, output: (i) => `/out/${i}` };
    const run = await startWasmFfmpeg({
      program: 'ffmpeg',
      args: args(names),
      inputs: [...files.inputs],
      textInputs: files.texts?.(names) ?? [],
      outputs: [...files.outputs],
    });
    const { code, stderr } = await run.done;
    if (code !== 0) throw new UserFacingError(`ffmpeg failed: ${stderr.trim().split('\n').pop() ?? code}`);
    return;
  }
  const textPaths: string[] = [];
  const names: FfmpegNames = {
    input: (i) => files.inputs[i],
    text: (i) => textPaths[i],
    output: (i) => files.outputs[i],
  };
  for (const [index, text] of (files.texts?.(names) ?? []).entries()) {
    textPaths[index] = path.join(scratch, `ffmpeg-text-${index}-${Date.now()}.txt`);
    await writeFile(textPaths[index], text, 'utf8');
  }
  try {
    await ffmpeg(tools.ffmpeg, args(names));
  } finally {
    await Promise.all(textPaths.map((file) => rm(file, { force: true })));
  }
}

function ffmpeg(executable: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? toolNotFoundError('ffmpeg') : error),
    );
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new UserFacingError(`ffmpeg failed: ${stderr.trim().split('\n').pop() ?? code}`)),
    );
  });
}

/** Encodes a chapter's WAV as the book's format. */
export async function encodeChapter(
  wav: string,
  encoded: string,
  format: AudiobookFormat,
  scratch: string,
): Promise<void> {
  await runFfmpeg(
    { inputs: [wav], outputs: [encoded] },
    (names) => [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      names.input(0),
      ...ENCODING[format].codec,
      names.output(0),
    ],
    scratch,
  );
}

/** One M4B or MP3: the encoded chapters joined without re-encoding, with the chapter markers and metadata; written as `<out>.partial`, then renamed. */
export async function writeBook(
  book: { title?: string; author?: string },
  timed: readonly TimedChapter[],
  encoded: readonly string[],
  out: string,
  format: AudiobookFormat,
  scratch: string,
): Promise<string[]> {
  const partial = `${out}.partial`;
  const listing = (names: FfmpegNames): string =>
    encoded.map((_, index) => `file '${names.input(index).replace(/'/g, "'\\''")}'`).join('\n');
  await runFfmpeg(
    { inputs: encoded, texts: (names) => [listing(names), chapterMetadata(book, timed)], outputs: [partial] },
    (names) => [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      names.text(0),
      '-i',
      names.text(1),
      '-map',
      '0:a',
      '-map_metadata',
      '1',
      '-map_chapters',
      '1',
      '-c',
      'copy',
      '-f',
      format === 'm4b' ? 'mp4' : 'mp3',
      names.output(0),
    ],
    scratch,
  );
  await rename(partial, out);
  return [out];
}

/** One MP3 per chapter in the folder `out` (`01 Title.mp3`), tagged with title, track, album and artist. */
export async function writeChapterFiles(
  book: { title?: string; author?: string },
  timed: readonly TimedChapter[],
  encoded: readonly string[],
  out: string,
): Promise<string[]> {
  const folder = `${out}.partial`;
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  const digits = String(timed.length).length;
  const names: string[] = [];
  for (const [index, chapter] of timed.entries()) {
    // eslint-disable-next-line no-control-regex -- control characters cannot be in a file name
    const notInFileNames = /[\\/:*?"<>|\u0000-\u001f]/g;
    const safeTitle = chapter.title.replace(notInFileNames, ' ').replace(/\s+/g, ' ').trim().slice(0, 80);
    const name = `${String(index + 1).padStart(Math.max(2, digits), '0')} ${safeTitle || 'Chapter'}.mp3`;
    const tags = ['-metadata', `title=${chapter.title}`, '-metadata', `track=${index + 1}/${timed.length}`];
    if (book.title) tags.push('-metadata', `album=${book.title}`);
    if (book.author) tags.push('-metadata', `artist=${book.author}`, '-metadata', `album_artist=${book.author}`);
    await runFfmpeg(
      { inputs: [encoded[index]], outputs: [path.join(folder, name)] },
      (names) => [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-i',
        names.input(0),
        '-map',
        '0:a',
        '-c',
        'copy',
        ...tags,
        '-id3v2_version',
        '3',
        '-f',
        'mp3',
        names.output(0),
      ],
      folder,
    );
    names.push(name);
  }
  // Checked again at the end: the folder may have gained the user's files while the book was synthesized.
  await checkChapterFolder(out).catch((error: Error) => {
    throw new UserFacingError(error.message);
  });
  await rm(out, { recursive: true, force: true });
  await rename(folder, out);
  return names.map((name) => path.join(out, name));
}
