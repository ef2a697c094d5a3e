/**
 * A book's chapter is joined from its paragraphs' WAVs block by block (src/engine/book/book-audio.ts), so
 * memory stays bounded whatever a paragraph's length: joining a 256 MB paragraph (about 50 minutes of
 * speech, as a 100 000-character paragraph makes) must not read it whole. Measured in a child process, as
 * the growth of its peak resident memory; reading the file whole would grow it by twice the file.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { readWavInfo } from '../../src/audio/wav-reader';
import { PROJECT_ROOT, tempDir } from '../helpers/server';
import { open } from 'node:fs/promises';

const PARAGRAPH_BYTES = 256 * 1024 * 1024;
/** Far below the 512 MB that reading the paragraph whole (its bytes, then its samples) would add. */
const MAX_GROWTH_MB = 96;

const CHILD = `
const { WavWriter } = require('./src/engine/audio/wav-writer');
const { joinWavs } = require('./src/engine/book/book-audio');
(async () => {
  const [paragraph, short, joined, frames] = process.argv.slice(1);
  for (const [file, count] of [[paragraph, Number(frames)], [short, 44100]]) {
    const writer = await WavWriter.create(file, { sampleRate: 44100, channels: 1 });
    await writer.write(new Int16Array(4410).fill(1000));
    await writer.writeSilence(count - 4410);
    await writer.close();
  }
  const before = process.resourceUsage().maxRSS;
  await joinWavs([short, paragraph, short], joined);
  console.log(JSON.stringify({ growthKb: process.resourceUsage().maxRSS - before }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

describe('joining a chapter from its paragraphs', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it(
    'streams a 256 MB paragraph with bounded memory, and the chapter holds every sample and pause',
    { timeout: 300_000 },
    async () => {
      const dir = await tempDir();
      dirs.push(dir);
      const [paragraph, short, joined] = ['paragraph.wav', 'short.wav', 'chapter.wav'].map((name) =>
        path.join(dir, name),
      );
      const frames = PARAGRAPH_BYTES / 2;
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', '-e', CHILD, paragraph, short, joined, String(frames)],
        { cwd: PROJECT_ROOT },
      );
      const { growthKb } = JSON.parse(stdout) as { growthKb: number };
      assert.ok(
        growthKb / 1024 < MAX_GROWTH_MB,
        `peak memory grew by ${(growthKb / 1024).toFixed(0)} MB while joining`,
      );
      const handle = await open(joined, 'r');
      try {
        const head = Buffer.alloc(4096);
        await handle.read(head, 0, head.length, 0);
        const info = readWavInfo(head);
        // Two pauses of 0.6 s between three paragraphs.
        assert.equal(info.frames, frames + 2 * 44100 + 2 * Math.round(0.6 * 44100));
        const sample = Buffer.alloc(2);
        await handle.read(sample, 0, 2, info.dataOffset + 2 * (44100 + Math.round(0.6 * 44100)));
        assert.equal(sample.readInt16LE(0), 1000, 'the long paragraph starts after the first paragraph and its pause');
      } finally {
        await handle.close();
      }
    },
  );
});
