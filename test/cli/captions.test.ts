import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { CLI } from '../helpers/server';
import { assertMonotonicCues, parseSrt, parseVtt } from '../helpers/subtitles';
import { tempDir } from '../helpers/temp';
import { linkSyntheticWhisper, testModel } from '../helpers/test-models';
import { makeTwoRecordings, SECOND_RECORDING_AT, TWO_RECORDINGS_SECONDS } from '../helpers/two-recordings';

const run = promisify(execFile);
const ffmpeg = (): string => process.env.SPEECH_STUDIO_FFMPEG || 'ffmpeg';
const DEADLINE_MS = 120_000;

interface Captioning {
  exited: Promise<number | string>;
  stdout(): string;
  stderr(): string;
  signal(name: NodeJS.Signals): void;
}

function captions(args: string[]): Captioning {
  const child = spawn(process.execPath, [CLI, 'captions', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const timer = setTimeout(() => child.kill('SIGKILL'), DEADLINE_MS);
  void exited.then(() => clearTimeout(timer));
  return { exited, stdout: () => stdout, stderr: () => stderr, signal: (name) => child.kill(name) };
}

/** Resolves once `file` holds at least one cue timing line while `running` has not ended; false if it ended first. */
async function firstCueWhileRunning(file: string, running: Captioning): Promise<boolean> {
  let ended = false;
  void running.exited.then(() => (ended = true));
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.includes('-->')) return !ended;
    if (ended) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('cli.js captions: live captions into a subtitle file (a file read at real time as the source, the synthetic whisper model)', () => {
  let dir: string;
  let dataDir: string;
  let talk: string;
  before(async () => {
    dir = await tempDir('speech-cli-captions-');
    dataDir = path.join(dir, 'data');
    await linkSyntheticWhisper(dataDir);
    await mkdir(path.join(dataDir, 'models', 'vad'), { recursive: true });
    await copyFile(
      testModel('vad/ggml-silero-v6.2.0.bin'),
      path.join(dataDir, 'models', 'vad', 'ggml-silero-v6.2.0.bin'),
    );
    talk = path.join(dir, 'talk.wav');
    await makeTwoRecordings(talk);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('appends a cue per utterance while it runs, over both recordings, and ends when the input does', async () => {
    const out = path.join(dir, 'live.srt');
    const running = captions(['--input', talk, '--out', out, '--language', 'en', '--data-dir', dataDir]);
    assert.ok(
      await firstCueWhileRunning(out, running),
      `a cue was in the file before the input ended\n${running.stderr()}`,
    );
    assert.equal(await running.exited, 0, running.stderr());
    const cues = parseSrt(await readFile(out, 'utf8'));
    assertMonotonicCues(cues);
    assert.ok(cues.length >= 3, `${cues.length} cues`);
    assert.ok(cues[0].start < 2, `the first cue starts with the first words: ${cues[0].start} s`);
    assert.ok(
      cues.some((cue) => cue.start > SECOND_RECORDING_AT),
      `the second recording (from ${SECOND_RECORDING_AT} s) has cues too: ${JSON.stringify(cues)}`,
    );
    assert.ok(cues.at(-1)!.end <= TWO_RECORDINGS_SECONDS + 0.1, `within the input: ${cues.at(-1)!.end}`);
    assert.match(running.stderr(), new RegExp(`Stopped: ${cues.length} cues written`));
    assert.doesNotMatch(running.stderr(), /\[engine \d+\]/, "the engine's chatter is not shown");
    assert.equal(running.stdout().trim().split('\n').length, cues.length, 'one line per cue on stdout');
  });

  it('Ctrl+C stops with the cues so far kept and exit 0; the same file again resumes after its last cue', async () => {
    const out = path.join(dir, 'stopped.vtt');
    const running = captions(['--input', talk, '--out', out, '--data-dir', dataDir]);
    assert.ok(await firstCueWhileRunning(out, running), running.stderr());
    running.signal('SIGINT');
    assert.equal(await running.exited, 0, running.stderr());
    const kept = parseVtt(await readFile(out, 'utf8'));
    assert.ok(kept.length >= 1);
    assert.ok(kept.at(-1)!.end < TWO_RECORDINGS_SECONDS, 'stopped before the input ended');

    const short = path.join(dir, 'short.wav');
    await run(ffmpeg(), ['-v', 'error', '-i', testModel('audio/jfk.wav'), '-t', '5', short]);
    const resumed = captions(['--input', short, '--out', out, '--data-dir', dataDir]);
    assert.equal(await resumed.exited, 0, resumed.stderr());
    const all = parseVtt(await readFile(out, 'utf8'));
    assert.ok(all.length > kept.length, `${all.length} cues after resuming, ${kept.length} before`);
    assertMonotonicCues(all);
    assert.ok(all[kept.length].start >= kept.at(-1)!.end, 'resumed cues come after the last one');
    assert.equal((await readFile(out, 'utf8')).match(/^WEBVTT/gm)?.length, 1, 'one header');
  });

  it('refuses an output that is not .srt or .vtt, and --input with --device', async () => {
    const wrong = captions(['--input', talk, '--out', path.join(dir, 'live.txt'), '--data-dir', dataDir]);
    assert.equal(await wrong.exited, 2);
    assert.match(wrong.stderr(), /captions writes an \.srt or \.vtt file/);
    const both = captions(['--input', talk, '--device', 'default', '--out', path.join(dir, 'x.srt')]);
    assert.equal(await both.exited, 2);
    assert.match(both.stderr(), /--input \(a file\) or --device/);
  });
});
