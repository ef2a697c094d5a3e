import assert from 'node:assert/strict';
import { copyFile, rm, utimes } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';
import { DEFAULT_SUBTITLE_STYLE } from '../../src/contract/subtitle-style';
import { runShotChangesTask } from '../../src/engine/media/shot-changes-task';
import { TaskYieldedError } from '../../src/engine-api/protocol';
import { EngineHost } from '../../src/jobs/engine-host';
import { findShotChanges } from '../../src/jobs/shot-changes';
import { silentLogger } from '../../src/util/log';
import { ENGINE_WORKER } from '../helpers/server';
import { CUT_SECONDS, makeShotVideo, SHOT_FRAMES, SHOT_VIDEO_FPS } from '../helpers/shot-video';
import { tempDir } from '../helpers/temp';
import { testModel } from '../helpers/test-models';
import { configureTestEngine } from '../helpers/engine-config';

// Engine code runs in this process too: configured from the environment, as the host configures its engine processes.
configureTestEngine({});

const FRAME = 1 / SHOT_VIDEO_FPS;

describe('the shot-changes engine task (ffmpeg scene score in the engine process) and its cache', () => {
  const host = new EngineHost({
    workerPath: ENGINE_WORKER,
    log: silentLogger,
    config: engineConfigFromEnvironment(process.env, { sttThreads: 2 }),
  });
  let dir = '';
  let video = '';

  before(async () => {
    dir = await tempDir('speech-studio-shots-');
    video = path.join(dir, 'cuts.mp4');
    await makeShotVideo(video);
  });
  after(async () => {
    await host.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds each hard cut of a generated video within one frame, and no other, with the frame rate', async () => {
    const found = await findShotChanges(
      host,
      path.join(dir, 'data'),
      video,
      DEFAULT_SUBTITLE_STYLE.shotChangeThreshold,
    );
    assert.equal(found.cached, false);
    assert.equal(found.framesPerSecond, SHOT_VIDEO_FPS);
    assert.ok(
      Math.abs(found.durationSeconds - SHOT_FRAMES.reduce((a, b) => a + b, 0) * FRAME) < 0.1,
      `duration ${found.durationSeconds}`,
    );
    assert.equal(found.changes.length, CUT_SECONDS.length, JSON.stringify(found.changes));
    found.changes.forEach((change, i) =>
      assert.ok(Math.abs(change - CUT_SECONDS[i]) <= FRAME, `cut ${i + 1} at ${change} s, made at ${CUT_SECONDS[i]} s`),
    );
  });

  it("stops with TaskYieldedError when asked to yield once its ffmpeg pass has begun, in the engine's own code", async () => {
    const yielding = new AbortController();
    const task = {
      kind: 'shot-changes' as const,
      mediaPath: video,
      threshold: DEFAULT_SUBTITLE_STYLE.shotChangeThreshold,
    };
    await assert.rejects(
      runShotChangesTask(task, () => yielding.abort(), yielding.signal),
      TaskYieldedError,
    );
    const done = await runShotChangesTask(task, () => undefined, new AbortController().signal);
    assert.equal(done.result.changes.length, CUT_SECONDS.length, 'not asked to yield, it runs to the end');
  });

  it('answers from the cache while the file is unchanged, and looks again when it or the threshold changes', async () => {
    const data = path.join(dir, 'data');
    const again = await findShotChanges(host, data, video, DEFAULT_SUBTITLE_STYLE.shotChangeThreshold);
    assert.equal(again.cached, true);
    assert.equal(again.changes.length, CUT_SECONDS.length);
    const otherThreshold = await findShotChanges(host, data, video, 0.9);
    assert.equal(otherThreshold.cached, false);
    await utimes(video, new Date(), new Date(Date.now() + 5_000));
    assert.equal((await findShotChanges(host, data, video, DEFAULT_SUBTITLE_STYLE.shotChangeThreshold)).cached, false);
  });

  it('says in a sentence that audio has no shot changes, and that a file that is not media cannot be read', async () => {
    const audio = path.join(dir, 'jfk.wav');
    await copyFile(testModel('audio', 'jfk.wav'), audio);
    await assert.rejects(
      findShotChanges(host, path.join(dir, 'data'), audio, 0.4),
      /has no video, so it has no shot changes/,
    );
    const notMedia = path.join(dir, 'notes.mp4');
    await copyFile(path.join(import.meta.dirname, 'shot-changes.test.ts'), notMedia);
    await assert.rejects(
      findShotChanges(host, path.join(dir, 'data'), notMedia, 0.4),
      /not a media file ffmpeg can read/,
    );
  });

  it('refuses a threshold outside 0–1 in the engine, with a sentence', async () => {
    await assert.rejects(
      host.run(
        'bad-threshold',
        { kind: 'shot-changes', mediaPath: video, threshold: 2 },
        { signal: new AbortController().signal, onProgress: () => undefined },
      ),
      /threshold must be a scene score above 0 and at most 1/,
    );
  });
});
