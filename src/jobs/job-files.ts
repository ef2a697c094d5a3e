import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { JobTask } from '../engine-api/protocol';
import type { JobRecord } from './types';

export const TTS_TEXT_FILE = 'input.txt';
/** A TTS job's lexicon entries, in its folder rather than in the store's journal (they can be megabytes). */
export const JOB_LEXICON_FILE = 'lexicon.json';
export const TRANSCRIPT_FILE = 'transcript.json';
/** A book job's plan (src/audiobook/book-plan.ts); the book itself goes where the user asked. */
export const BOOK_PLAN_FILE = 'book.json';

/** Where each job keeps its files: one folder per job under `<data-dir>/jobs/`. */
export class JobFiles {
  readonly root: string;

  constructor(private readonly dataDir: string) {
    this.root = path.join(dataDir, 'jobs');
  }

  dir(id: string): string {
    return path.join(this.root, id);
  }

  file(id: string, name: string): string {
    return path.join(this.root, id, name);
  }

  async create(id: string): Promise<string> {
    const dir = this.dir(id);
    await fs.mkdir(dir, { recursive: true });
    return dir;
  }

  async remove(id: string): Promise<void> {
    await fs.rm(this.dir(id), { recursive: true, force: true });
  }

  /**
   * Removes everything in the job's folder except its finished output and the lexicon entries it spoke with
   * (inputs, partial files go): the entries stay readable with the job, as they were when the store held them.
   */
  async keepOnlyOutput(job: JobRecord): Promise<void> {
    const names = await fs.readdir(this.dir(job.id)).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((name) => name !== job.outputFile && name !== JOB_LEXICON_FILE)
        .map((name) => fs.rm(path.join(this.dir(job.id), name), { recursive: true, force: true })),
    );
  }

  /** The output inside the job's folder; a book, translation or dub job has none there (its output is where the user asked). */
  outputFileName(job: JobRecord): string {
    return job.input.kind === 'tts' ? `output.${job.input.encodeAs ?? job.input.options.outputFormat}` : TRANSCRIPT_FILE;
  }

  finishedOutputFile(job: JobRecord): string | null {
    return job.input.kind === 'book' || job.input.kind === 'translate' || job.input.kind === 'dub' ? null : this.outputFileName(job);
  }

  /** The engine's view of a job: absolute paths and the options it needs. */
  task(job: JobRecord): JobTask {
    const input = job.input;
    if (input.kind === 'tts') {
      return {
        kind: 'tts',
        textPath: this.file(job.id, TTS_TEXT_FILE),
        outputPath: this.file(job.id, this.outputFileName(job)),
        options: input.options,
        voice: input.voice,
        ...(input.live ? { live: true } : {}),
        ...(input.encodeAs ? { encodeAs: input.encodeAs } : {}),
        ...(input.ssml ? { ssml: input.ssml } : {}),
        ...(input.lexiconEntries ? { lexiconPath: this.file(job.id, JOB_LEXICON_FILE) } : input.lexicon?.length ? { lexicon: input.lexicon } : {}),
      };
    }
    if (input.kind === 'translate') {
      return {
        kind: 'translate', inputPath: this.file(job.id, input.inputFile), format: input.format, outputPath: input.out,
        modelPath: input.modelPath, to: input.to, ...(input.from ? { from: input.from } : {}), style: input.style,
      };
    }
    if (input.kind === 'dub') {
      return {
        kind: 'dub', videoPath: input.input, outputPath: input.out, workDir: this.dir(job.id), modelPath: input.modelPath, to: input.to,
        mix: input.mix, voices: input.voices, style: input.style, ...(input.from ? { from: input.from } : {}),
        ...(input.subtitlesFile ? { subtitlesPath: this.file(job.id, input.subtitlesFile), subtitlesFormat: input.subtitlesFormat } : {}),
        ...(input.sttModelPath ? { sttModelPath: input.sttModelPath } : {}),
      };
    }
    if (input.kind === 'book') {
      return { kind: 'book', planPath: this.file(job.id, BOOK_PLAN_FILE), workDir: this.dir(job.id), dataDir: this.dataDir };
    }
    if (input.align) {
      return {
        kind: 'align',
        inputPath: this.file(job.id, input.inputFile),
        scriptPath: this.file(job.id, input.align.scriptFile),
        scriptFormat: input.align.scriptFormat,
        workDir: this.dir(job.id),
        options: input.options,
        vadModelPath: input.align.vadModelPath,
        ...(input.align.recognizerModelPath ? { recognizerModelPath: input.align.recognizerModelPath } : {}),
      };
    }
    return {
      kind: 'stt',
      inputPath: this.file(job.id, input.inputFile),
      workDir: this.dir(job.id),
      modelPath: input.modelPath,
      ...(input.recognizer ? { recognizer: input.recognizer } : {}),
      options: input.options,
      ...(input.whisper ? { whisper: input.whisper } : {}),
    };
  }
}
