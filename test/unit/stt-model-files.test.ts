import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findMediaTools, firstErrorLine } from '../../src/engine/media/ffmpeg';
import { findDiarizationModels, findVadModel } from '../../src/models/model-files';
import { tempDir } from '../helpers/temp';

describe('STT model files', () => {
  let dataDir = '';
  let whisperModel = '';
  before(async () => {
    dataDir = await tempDir();
    whisperModel = path.join(dataDir, 'models', 'whisper', 'ggml-base.bin');
    await mkdir(path.dirname(whisperModel), { recursive: true });
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('finds no VAD model when none is installed', async () => {
    assert.equal(await findVadModel(whisperModel, {}), null);
  });

  it('finds the newest ggml Silero model in <models>/vad', async () => {
    const vadDir = path.join(dataDir, 'models', 'vad');
    await mkdir(vadDir, { recursive: true });
    for (const name of ['ggml-silero-v5.1.2.bin', 'ggml-silero-v6.2.0.bin', 'silero_vad.onnx']) {
      await writeFile(path.join(vadDir, name), '');
    }
    assert.equal(await findVadModel(whisperModel, {}), path.join(vadDir, 'ggml-silero-v6.2.0.bin'));
  });

  it('prefers SPEECH_STUDIO_VAD_MODEL, and ignores it when the file is missing', async () => {
    const custom = path.join(dataDir, 'custom-vad.bin');
    await writeFile(custom, '');
    assert.equal(await findVadModel(whisperModel, { vadModel: custom }), custom);
    assert.equal(await findVadModel(whisperModel, { vadModel: `${custom}.missing` }), null);
  });

  it('finds the diarization models only when both files exist', async () => {
    const dir = path.join(dataDir, 'models', 'diarization');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'segmentation.onnx'), '');
    assert.equal(await findDiarizationModels(whisperModel), null);
    await writeFile(path.join(dir, 'embedding.onnx'), '');
    assert.deepEqual(await findDiarizationModels(whisperModel), {
      segmentation: path.join(dir, 'segmentation.onnx'),
      embedding: path.join(dir, 'embedding.onnx'),
    });
  });
});

describe('media tools', () => {
  it('uses PATH by default, and the ffprobe beside a configured ffmpeg', () => {
    assert.deepEqual(findMediaTools({}), { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' });
    assert.deepEqual(findMediaTools({ ffmpeg: '/opt/ff/bin/ffmpeg' }), {
      ffmpeg: '/opt/ff/bin/ffmpeg',
      ffprobe: '/opt/ff/bin/ffprobe',
    });
    assert.deepEqual(findMediaTools({ ffmpeg: '/opt/ff/ffmpeg', ffprobe: '/x/probe' }), {
      ffmpeg: '/opt/ff/ffmpeg',
      ffprobe: '/x/probe',
    });
  });

  it('takes the first error line without the internal input path', () => {
    assert.equal(
      firstErrorLine(
        '\n/data/jobs/1/input.mp3: Invalid data found when processing input\nmore\n',
        '/data/jobs/1/input.mp3',
      ),
      'Invalid data found when processing input',
    );
    assert.equal(
      firstErrorLine(
        '[mp3 @ 0x56327c754680] Failed to read frame size: Could not seek to 1029.\n/x.mp3: Invalid argument\n',
        '/x.mp3',
      ),
      'Failed to read frame size: Could not seek to 1029.',
    );
    assert.equal(firstErrorLine('', '/x'), 'no details given');
  });
});
