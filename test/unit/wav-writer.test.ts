import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readWavInfo, readWavSamples } from '../../src/audio/wav-reader';
import { WAV_HEADER_BYTES, WavWriter } from '../../src/engine/audio/wav-writer';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wav-writer-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('WavWriter', () => {
  it('patches the RIFF and data sizes when it closes', async () => {
    const path = join(dir, 'mono.wav');
    const writer = await WavWriter.create(path, { sampleRate: 24000, channels: 1 });
    await writer.write(Int16Array.from([1, -2, 32767]));
    await writer.write(new Int16Array(0));
    await writer.write(Int16Array.from([-32768, 5]));
    assert.deepEqual(await writer.close(), { bytes: WAV_HEADER_BYTES + 10, frames: 5 });

    const file = await readFile(path);
    assert.equal(file.length, 54);
    assert.equal(file.readUInt32LE(4), 46);
    assert.equal(file.readUInt32LE(40), 10);
    assert.deepEqual(readWavInfo(file), {
      format: 'pcm',
      formatCode: 1,
      channels: 1,
      sampleRate: 24000,
      bitsPerSample: 16,
      dataOffset: 44,
      dataBytes: 10,
      frames: 5,
    });
    assert.deepEqual([...readWavSamples(file).samples], [1, -2, 32767, -32768, 5]);
  });

  it('writes each sample to both channels in stereo', async () => {
    const path = join(dir, 'stereo.wav');
    const writer = await WavWriter.create(path, { sampleRate: 48000, channels: 2 });
    await writer.write(Int16Array.from([10, -20, 30]));
    assert.deepEqual(await writer.close(), { bytes: 56, frames: 3 });
    const { info, samples } = readWavSamples(await readFile(path));
    assert.equal(info.channels, 2);
    assert.equal(info.frames, 3);
    assert.equal((await readFile(path)).readUInt32LE(28), 48000 * 4, 'byte rate');
    assert.deepEqual([...samples], [10, 10, -20, -20, 30, 30]);
  });

  it('leaves a valid empty WAV when nothing was written', async () => {
    const path = join(dir, 'empty.wav');
    const writer = await WavWriter.create(path, { sampleRate: 16000, channels: 1 });
    assert.deepEqual(await writer.close(), { bytes: 44, frames: 0 });
    assert.equal(readWavInfo(await readFile(path)).frames, 0);
  });

  it('refuses writes after close, and abort after close does nothing', async () => {
    const writer = await WavWriter.create(join(dir, 'closed.wav'), { sampleRate: 16000, channels: 1 });
    await writer.close();
    await assert.rejects(writer.write(Int16Array.from([1])), /closed/);
    await writer.abort();
  });

  it('rejects a format it cannot write', async () => {
    await assert.rejects(WavWriter.create(join(dir, 'bad.wav'), { sampleRate: 0, channels: 1 }), TypeError);
    await assert.rejects(WavWriter.create(join(dir, 'bad.wav'), { sampleRate: 16000, channels: 3 as 1 }), TypeError);
  });
});

describe('readWavInfo', () => {
  it('skips chunks it does not know, including odd-sized ones', () => {
    const fmt = Buffer.alloc(24);
    fmt.write('fmt ', 0, 'ascii');
    fmt.writeUInt32LE(16, 4);
    fmt.writeUInt16LE(3, 8);
    fmt.writeUInt16LE(2, 10);
    fmt.writeUInt32LE(44100, 12);
    fmt.writeUInt16LE(32, 22);
    const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([3, 0, 0, 0]), Buffer.from('abc\0')]);
    const data = Buffer.concat([Buffer.from('data'), Buffer.from([16, 0, 0, 0]), Buffer.alloc(16)]);
    const body = Buffer.concat([Buffer.from('WAVE'), fmt, list, data]);
    const header = Buffer.alloc(8);
    header.write('RIFF', 0, 'ascii');
    header.writeUInt32LE(body.length, 4);
    const info = readWavInfo(Buffer.concat([header, body]));
    assert.equal(info.format, 'float');
    assert.equal(info.channels, 2);
    assert.equal(info.sampleRate, 44100);
    assert.equal(info.dataBytes, 16);
    assert.equal(info.frames, 2);
    assert.throws(() => readWavSamples(Buffer.concat([header, body])), /16-bit PCM/);
  });

  it('rejects what is not a WAV file', () => {
    assert.throws(() => readWavInfo(Buffer.from('ID3 not a wave file at all')), TypeError);
    assert.throws(() => readWavInfo(Buffer.from('RIFF\x04\0\0\0WAVE')), /fmt chunk/);
  });
});
