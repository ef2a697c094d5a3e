import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/cli';
import { installDiarizationModels } from '../helpers/diarization-models';
import { makeTalkingVideo, probeVideoFile, type ProbedVideo } from '../helpers/dub-video';
import { CLI } from '../helpers/server';
import { tempDir } from '../helpers/temp';
import { linkSyntheticWhisper } from '../helpers/test-models';
import { TINY_LLM_NAME, tinyLlmModel } from '../helpers/tiny-llm';
import { mkdir } from 'node:fs/promises';

const SCENE_VTT = `WEBVTT

00:00:00.500 --> 00:00:03.000
<v Ann>Hello there, how are you?

00:00:03.500 --> 00:00:06.500
<v Bob>Fine, thank you. And you?

00:00:07.000 --> 00:00:10.000
<v Ann>Very well, thanks for asking.

`;

/** The dubbed copy against its video: the same video packets, one audio track more, the same length. */
function assertDubbedCopy(original: ProbedVideo, dubbed: ProbedVideo, language: string): void {
  assert.equal(dubbed.videoPacketsMd5, original.videoPacketsMd5, 'the video stream is copied bit for bit');
  const audio = (probed: ProbedVideo) => probed.streams.filter((stream) => stream.codecType === 'audio');
  assert.equal(audio(dubbed).length, audio(original).length + 1, 'one audio track more');
  assert.equal(audio(dubbed)[0].language, language);
  assert.ok(audio(dubbed)[0].isDefault, 'the dub is the default audio track');
  assert.ok(!audio(dubbed)[1].isDefault, 'the original audio is kept, not default');
  // Within one frame (10 fps): Matroska has no edit list, so the last AAC frame's padding (some 20–64 ms) shows in its length.
  assert.ok(
    Math.abs(dubbed.durationSeconds - original.durationSeconds) < 0.1,
    `duration ${dubbed.durationSeconds} s, the video's ${original.durationSeconds} s`,
  );
}

describe('cli.js dub (a generated video, the tiny random GGUF model, espeak-ng voices, through the job core and the engine)', () => {
  let dir: string;
  let dataDir: string;
  let video: string;
  let original: ProbedVideo;
  before(async () => {
    dir = await tempDir('speech-cli-dub-');
    dataDir = path.join(dir, 'data');
    await mkdir(path.join(dataDir, 'models', 'llm'), { recursive: true });
    await copyFile(await tinyLlmModel(), path.join(dataDir, 'models', 'llm', TINY_LLM_NAME));
    await linkSyntheticWhisper(dataDir);
    await installDiarizationModels(dataDir);
    video = path.join(dir, 'talk.mp4');
    await makeTalkingVideo(video, 12);
    original = await probeVideoFile(video);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('transcribes with diarization, translates, narrates and mixes into a copy: video bit-identical, a new German track, the same length', async () => {
    const run = await runCli(['dub', video, '--to', 'de', '--data-dir', dataDir]);
    assert.equal(run.code, 0, run.stderr);
    const out = path.join(dir, 'talk.de.mp4');
    assert.match(run.stdout, /Wrote .*talk\.de\.mp4: \d+ cues dubbed into de \(audio track ger, duck\)/);
    assert.match(run.stdout, /Speaker \d+: .+ \(espeak-ng, library, (female|male|unknown)/);
    assert.match(run.stdout, /Every cue fits its time\.|Cue \d+ does not fit: it runs [\d.]+ s past its time/);
    assert.match(
      run.stdout,
      /Stages: transcribe [\d.]+ s, translate [\d.]+ s, voices [\d.]+ s, narrate [\d.]+ s, mix [\d.]+ s\./,
    );
    assertDubbedCopy(original, await probeVideoFile(out), 'ger');
    assert.deepEqual(
      (await readdir(dir)).filter((name) => name.includes('partial')),
      [],
    );
  });

  it('dubs from given subtitles with --mix replace: each speaker their own voice, the report names them', async () => {
    const subtitles = path.join(dir, 'talk.vtt');
    await writeFile(subtitles, SCENE_VTT);
    const out = path.join(dir, 'talk.fr.mkv');
    const run = await runCli([
      'dub',
      video,
      '--to',
      'fr',
      '--subtitles',
      subtitles,
      '--mix',
      'replace',
      '--out',
      out,
      '--data-dir',
      dataDir,
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /3 cues dubbed into fr \(audio track fre, replace\)/);
    const voiceOf = (name: string): string => new RegExp(`^${name}: (.+?) \\(`, 'm').exec(run.stdout)?.[1] ?? '';
    assert.ok(voiceOf('Ann') && voiceOf('Bob'), run.stdout);
    assertDubbedCopy(original, await probeVideoFile(out), 'fre');
  });

  it('refuses what it cannot dub with one sentence, writing nothing', async () => {
    const usage = await runCli(['dub', video, '--data-dir', dataDir]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /needs --to/);
    const mix = await runCli(['dub', video, '--to', 'de', '--mix', 'loud', '--data-dir', dataDir]);
    assert.equal(mix.code, 2);
    assert.match(mix.stderr, /--mix is duck or replace/);
    const same = await runCli(['dub', video, '--to', 'de', '--out', video, '--data-dir', dataDir]);
    assert.equal(same.code, 1);
    assert.match(same.stderr, /would replace the input/);
    const container = await runCli([
      'dub',
      video,
      '--to',
      'de',
      '--out',
      path.join(dir, 'x.wav'),
      '--data-dir',
      dataDir,
    ]);
    assert.match(container.stderr, /A dub is written as \.mp4/);
    const missing = await runCli(['dub', path.join(dir, 'none.mp4'), '--to', 'de', '--data-dir', dataDir]);
    assert.match(missing.stderr, /There is no video at .*none\.mp4/);
    const noLanguage = await runCli([
      'dub',
      video,
      '--to',
      'tlh',
      '--out',
      path.join(dir, 'x.tlh.mp4'),
      '--data-dir',
      dataDir,
    ]);
    assert.equal(noLanguage.code, 1);
    assert.match(noLanguage.stderr, /No ready voice in your voice library speaks tlh/);
    const noRecognizer = await runCli([
      'dub',
      video,
      '--to',
      'de',
      '--out',
      path.join(dir, 'y.mp4'),
      '--data-dir',
      path.join(dir, 'empty'),
    ]);
    assert.equal(noRecognizer.code, 1);
    assert.match(noRecognizer.stderr, /No speech-to-text model is installed.*--subtitles/);
    assert.ok(!existsSync(path.join(dir, 'x.xx.mp4')) && !existsSync(path.join(dir, 'y.mp4')));
  });

  it('is cancelled by Ctrl+C once it runs: exit 130, no dub and no partial file left', async () => {
    const out = path.join(dir, 'cancelled.mp4');
    const child = spawn(process.execPath, [CLI, 'dub', video, '--to', 'de', '--out', out, '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        // Interrupted once the engine works on it: the job is running, not merely queued.
        if (/Dub talk\.mp4 → de: \d+%/.test(output)) resolve();
      });
      child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
      void exited.then(() => reject(new Error(`ended before it ran:\n${output}`)));
    });
    child.kill('SIGINT');
    assert.equal(await exited, 130, output);
    assert.ok(!existsSync(out));
    assert.deepEqual(
      (await readdir(dir)).filter((name) => name.includes('partial')),
      [],
    );
  });
});
