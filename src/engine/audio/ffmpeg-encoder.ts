/**
 * Encodes a stream of 16-bit PCM into mp3, aac or flac through an ffmpeg child process: samples go to
 * ffmpeg's stdin as they are made (with back-pressure), so memory stays flat for any length. Silence goes
 * as slices of one shared block of zeros, and the disk is looked at as the output grows (disk-guard.ts).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { findMediaTools, firstErrorLine, isMissingExecutable, toolNotFoundError } from '../media/ffmpeg';
import { UserFacingError } from '../../engine-api/protocol';
import { DiskGuard } from './disk-guard';
import { encoderArgs, type EncoderSettings } from './encoder-settings';
import { stereoFromMono } from './samples';

/** Zeros that silence is sent from; never written to. 256 KB: few writes, little memory. */
const ZEROS = Buffer.alloc(256 * 1024);

export interface EncodedSummary {
  bytes: number;
  frames: number;
}

export class FfmpegEncoder {
  private frames = 0;
  private stderr = '';
  private spawnError: Error | undefined;
  private readonly exited: Promise<number | null>;
  private readonly guard: DiskGuard;

  private constructor(
    private readonly child: ChildProcessByStdio<Writable, null, Readable>,
    private readonly path: string,
    private readonly settings: EncoderSettings,
  ) {
    this.guard = new DiskGuard(dirname(resolve(this.path)));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      if (this.stderr.length < 16 * 1024) this.stderr += text;
    });
    // A write after ffmpeg died fails with EPIPE; the exit code tells the real story.
    child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      child.once('error', (error) => {
        this.spawnError = isMissingExecutable(error) ? toolNotFoundError('ffmpeg') : error;
        resolve(null);
      });
      child.once('close', (code) => resolve(code));
    });
  }

  /** Starts ffmpeg writing `path` in the settings' format. */
  static start(
    path: string,
    settings: EncoderSettings,
    ffmpeg = findMediaTools().ffmpeg,
    flushEachPacket = false,
  ): FfmpegEncoder {
    const args = encoderArgs(settings, 'pipe:0', path, flushEachPacket);
    const child = spawn(ffmpeg, args, { stdio: ['pipe', 'ignore', 'pipe'], windowsHide: true });
    return new FfmpegEncoder(child, path, settings);
  }

  /** Appends mono samples; with two channels each sample goes to both. */
  async write(samples: Int16Array): Promise<void> {
    if (samples.length === 0) return;
    if (this.spawnError) throw this.spawnError;
    const data = this.settings.channels === 2 ? stereoFromMono(samples) : samples;
    // A copy: the caller may reuse its buffer while the pipe still holds this one.
    await this.send(Buffer.from(Buffer.from(data.buffer, data.byteOffset, data.byteLength)));
    this.frames += samples.length;
  }

  /** Appends `count` frames of silence. */
  async writeSilence(count: number): Promise<void> {
    if (this.spawnError) throw this.spawnError;
    for (let left = count * this.settings.channels * 2; left > 0; left -= ZEROS.length) {
      await this.send(left >= ZEROS.length ? ZEROS : ZEROS.subarray(0, left));
    }
    this.frames += count;
  }

  private async send(bytes: Buffer): Promise<void> {
    await this.guard.beforeWrite(bytes.length);
    if (!this.child.stdin.write(bytes)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.child.stdin.off('drain', done);
          this.child.off('close', done);
          resolve();
        };
        this.child.stdin.once('drain', done);
        this.child.once('close', done);
      });
    }
    if (this.child.exitCode !== null) await this.finishOrThrow();
  }

  /** Closes ffmpeg's input and waits until the file is complete. */
  async finish(): Promise<EncodedSummary> {
    this.child.stdin.end();
    await this.finishOrThrow();
    return { bytes: (await stat(this.path)).size, frames: this.frames };
  }

  /** Stops ffmpeg; the caller removes the partial file. */
  async abort(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }

  private async finishOrThrow(): Promise<void> {
    const code = await this.exited;
    if (this.spawnError) throw this.spawnError;
    if (code !== 0) {
      throw new UserFacingError(
        `ffmpeg could not encode the ${this.settings.format} file: ${firstErrorLine(this.stderr, this.path)}`,
      );
    }
  }
}
