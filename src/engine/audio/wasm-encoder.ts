/**
 * Encodes a stream of 16-bit PCM into mp3, aac or flac with ffmpeg compiled to WebAssembly, for machines
 * without a system ffmpeg: the same contract as FfmpegEncoder. Samples stream into the worker's /dev/in with
 * back-pressure and the encoded file is written to disk as ffmpeg writes it, so memory stays flat.
 */
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { firstErrorLine } from '../media/ffmpeg';
import { startWasmFfmpeg, type WasmResult, type WasmRun } from '../media/wasm-ffmpeg';
import { UserFacingError } from '../../engine-api/protocol';
import { DiskGuard } from './disk-guard';
import { encoderArgs, type EncoderSettings } from './encoder-settings';
import { stereoFromMono } from './samples';
import type { EncodedSummary } from './ffmpeg-encoder';

/** Zeros that silence is sent from; never written to. */
const ZEROS = new Uint8Array(256 * 1024);

export class WasmEncoder {
  private frames = 0;
  private result: WasmResult | undefined;
  private readonly guard: DiskGuard;

  private constructor(
    private readonly run: WasmRun,
    private readonly path: string,
    private readonly settings: EncoderSettings,
  ) {
    this.guard = new DiskGuard(dirname(resolve(path)));
    void run.done.then(
      (result) => (this.result = result),
      () => undefined,
    );
  }

  /** Starts the WebAssembly ffmpeg writing `path` in the settings' format. */
  static async start(path: string, settings: EncoderSettings, flushEachPacket = false): Promise<WasmEncoder> {
    const args = encoderArgs(settings, '/dev/in', '/out/0', flushEachPacket);
    const run = await startWasmFfmpeg({ program: 'ffmpeg', args, outputs: [path], streamIn: true });
    return new WasmEncoder(run, path, settings);
  }

  /** Appends mono samples; with two channels each sample goes to both. */
  async write(samples: Int16Array): Promise<void> {
    if (samples.length === 0) return;
    const data = this.settings.channels === 2 ? stereoFromMono(samples) : samples;
    await this.send(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    this.frames += samples.length;
  }

  /** Appends `count` frames of silence. */
  async writeSilence(count: number): Promise<void> {
    for (let left = count * this.settings.channels * 2; left > 0; left -= ZEROS.length) {
      await this.send(left >= ZEROS.length ? ZEROS : ZEROS.subarray(0, left));
    }
    this.frames += count;
  }

  private async send(bytes: Uint8Array): Promise<void> {
    if (this.result) this.throwIfFailed(this.result);
    await this.guard.beforeWrite(bytes.length);
    await this.run.write(bytes);
  }

  /** Ends the input and waits until the file is complete. */
  async finish(): Promise<EncodedSummary> {
    this.run.end();
    this.throwIfFailed(await this.run.done);
    return { bytes: (await stat(this.path)).size, frames: this.frames };
  }

  /** Stops the encoder; the caller removes the partial file. */
  async abort(): Promise<void> {
    await this.run.abort();
  }

  private throwIfFailed(result: WasmResult): void {
    if (result.code !== 0) {
      throw new UserFacingError(
        `ffmpeg could not encode the ${this.settings.format} file: ${firstErrorLine(result.stderr, '/out/0')}`,
      );
    }
  }
}
