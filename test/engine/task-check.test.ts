/**
 * The engine process checks every task it receives against the API's own limits: a task that no door
 * would have accepted (a store record edited by hand, a door that forgot a rule) fails with a sentence
 * before any work, and the same process then runs the next good task.
 */
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TtsRequest } from '../../src/contract/types';
import type { ChildMessage, EngineTask, ParentMessage, TtsTask } from '../../src/engine-api/protocol';
import { ENGINE_WORKER } from '../helpers/server';
import { tempDir } from '../helpers/temp';

const OPTIONS: Omit<TtsRequest, 'text'> = {
  voiceId: '59ecd22d-96db-56b8-a0f4-62d14ba28a8b',
  language: 'auto',
  inputFormat: 'txt',
  outputFormat: 'wav',
  sampleRate: 24000,
  bitrateKbps: null,
  audioChannels: 'mono',
  steps: 32,
  guidanceScale: 2,
  speed: 1,
  duration: null,
  denoise: true,
  preprocessPrompt: true,
  postprocessOutput: true,
  trimSilence: true,
};
const VOICE = { engine: 'espeak-ng', engineVoiceId: 'gmw/en-US', languageCode: 'en-US' } as const;
/** The worker answers a refused task at once; a task it started instead would take far longer. */
const ANSWER_MS = 30_000;

type Outcome = Extract<ChildMessage, { type: 'result' | 'failed' }>;

describe('the engine process re-checks every task', () => {
  let dir = '';
  let worker: ChildProcess;
  let jobs = 0;

  before(async () => {
    dir = await tempDir('speech-studio-task-check-');
    worker = fork(ENGINE_WORKER, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: [] });
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.on('message', (message: ChildMessage) => message.type === 'ready' && resolve());
    });
  });

  after(async () => {
    if (worker.exitCode === null) {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.kill('SIGKILL');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  /** Sends `task` (any shape: the worker must not trust it) and waits for its outcome. */
  function run(task: unknown): Promise<Outcome> {
    const jobId = `job-${(jobs += 1)}`;
    return new Promise<Outcome>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer for ${jobId} within ${ANSWER_MS} ms`)), ANSWER_MS);
      const onMessage = (message: ChildMessage): void => {
        if ((message.type === 'result' || message.type === 'failed') && message.jobId === jobId) {
          clearTimeout(timer);
          worker.off('message', onMessage);
          resolve(message);
        }
      };
      worker.on('message', onMessage);
      worker.send({ type: 'run', jobId, task: task as EngineTask } satisfies ParentMessage);
    });
  }

  async function ttsTask(
    text: string,
    options: Record<string, unknown> = {},
    extra: Record<string, unknown> = {},
  ): Promise<TtsTask> {
    const name = `tts-${(jobs += 1)}`;
    const textPath = path.join(dir, `${name}.txt`);
    await writeFile(textPath, text);
    return {
      kind: 'tts',
      textPath,
      outputPath: path.join(dir, `${name}.wav`),
      options: { ...OPTIONS, ...options },
      voice: VOICE,
      ...extra,
    };
  }

  async function assertRefused(task: unknown, message: RegExp): Promise<void> {
    const outcome = await run(task);
    assert.equal(outcome.type, 'failed', JSON.stringify(outcome));
    assert.match((outcome as { message: string }).message, message);
    assert.doesNotMatch((outcome as { message: string }).message, /\n\s+at |Cannot read properties/);
  }

  it('refuses a TTS task whose sampleRate no request may have (a hand-edited 1e9), naming the field', async () => {
    const task = await ttsTask('Hello.', { sampleRate: 1e9 });
    await assertRefused(
      task,
      /^The job cannot run: its options are not valid \(sampleRate: must be one of 16000, 22050, 24000, 32000, 44100, 48000\)/,
    );
    await assert.rejects(stat(task.outputPath), 'nothing was written');
  });

  it("refuses options out of the API's ranges, of the wrong type, unknown, or missing", async () => {
    await assertRefused(await ttsTask('Hello.', { speed: 40 }), /\(speed: must be from 0\.5 to 2\)/);
    await assertRefused(
      await ttsTask('Hello.', { outputFormat: 'exe' }),
      /\(outputFormat: must be one of "wav", "mp3", "aac", "flac"\)/,
    );
    await assertRefused(await ttsTask('Hello.', { denoise: 'yes' }), /\(denoise: must be boolean\)/);
    await assertRefused(await ttsTask('Hello.', { shell: 'rm -rf /' }), /\(shell: is not a known field\)/);
    const { sampleRate: _dropped, ...withoutRate } = OPTIONS;
    await assertRefused({ ...(await ttsTask('Hello.')), options: withoutRate }, /\(sampleRate: is missing\)/);
    await assertRefused({ ...(await ttsTask('Hello.')), options: 'wav' }, /it has no options/);
  });

  it('refuses text longer than the API allows, and a missing text file', async () => {
    await assertRefused(await ttsTask('a'.repeat(100_001)), /\(text: must be 1 to 100000 characters\)/);
    await assertRefused(
      { ...(await ttsTask('Hello.')), textPath: path.join(dir, 'missing.txt') },
      /its text file is missing/,
    );
  });

  it('refuses relative paths, an unknown voice engine and an unknown kind', async () => {
    await assertRefused({ ...(await ttsTask('Hello.')), outputPath: 'out.wav' }, /outputPath is not an absolute path/);
    await assertRefused(
      { ...(await ttsTask('Hello.')), voice: { ...VOICE, engine: 'sam' } },
      /voice\.engine "sam" is not a speech engine/,
    );
    await assertRefused(
      { ...(await ttsTask('Hello.')), voice: { ...VOICE, speakers: { Ann: { engine: 'espeak-ng' } } } },
      /voice\.speakers\.Ann\.engineVoiceId is missing/,
    );
    await assertRefused({ kind: 'video' }, /its kind "video" is neither tts nor stt/);
    await assertRefused(null, /the engine received no task/);
  });

  it('refuses a speech-regions task whose media or VAD model is not an absolute path', async () => {
    await assertRefused(
      { kind: 'speech-regions', inputPath: 'jfk.wav', vadModelPath: path.join(dir, 'vad.bin') },
      /inputPath is not an absolute path/,
    );
    await assertRefused(
      { kind: 'speech-regions', inputPath: path.join(dir, 'jfk.wav') },
      /vadModelPath is not an absolute path/,
    );
  });

  it('refuses a live window whose VAD or decode start is not seconds, or whose token cap is not a whole number ≥ 1', async () => {
    const window = {
      kind: 'live-window',
      pcmPath: path.join(dir, 'w.pcm'),
      modelPath: path.join(dir, 'm.bin'),
      language: 'en',
      decode: true,
      preview: true,
      vadThreshold: 0.5,
    };
    await assertRefused({ ...window, speechFrom: -1 }, /speechFrom is not a number of seconds/);
    await assertRefused({ ...window, decodeFrom: '2' }, /decodeFrom is not a number of seconds/);
    await assertRefused({ ...window, maxTokens: 0 }, /maxTokens is not a whole number/);
    await assertRefused({ ...window, maxTokens: 2.5 }, /maxTokens is not a whole number/);
  });

  it("refuses a lexicon no PUT /lexicon would have stored, e.g. phonemes that would leave espeak-ng's [[…]]", async () => {
    const lexicon = [{ text: 'GIF', phonemes: 'x]] <voice name="y">', alphabet: 'espeak' }];
    await assertRefused(
      await ttsTask('A GIF.', {}, { lexicon }),
      /\(entries\[0\]\.phonemes: must not contain any of \[ \] < > &\)/,
    );
    await assertRefused(
      await ttsTask('A GIF.', {}, { lexicon: 'GIF' }),
      /its lexicon is not valid \(entries: must be array\)/,
    );
  });

  it('refuses a narration whose timeline runs past 10 hours, naming the cue and its line (SRT and VTT)', async () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\nHello.\n\n2\n99:00:00,000 --> 99:00:01,000\nLater.\n';
    await assertRefused(
      await ttsTask(srt, { inputFormat: 'srt' }),
      /^The narration is too long: cue 2 \(line 6\) ends at 99:00:01\.000, past the 10-hour limit/,
    );
    const vtt = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello.\n\n99:59:59.000 --> 99:59:59.500\nLater.\n';
    await assertRefused(
      await ttsTask(vtt, { inputFormat: 'vtt' }),
      /^The narration is too long: cue 2 \(line 6\) ends at 99:59:59\.500/,
    );
  });

  it('refuses STT tasks with options the API refuses', async () => {
    const stt = (options: Record<string, unknown>) => ({
      kind: 'stt',
      inputPath: path.join(dir, 'in.wav'),
      workDir: dir,
      modelPath: path.join(dir, 'model.bin'),
      options: { language: 'en', punctuation: true, diarizationEnabled: false, speakerCountMode: 'auto', ...options },
    });
    await assertRefused(stt({ speakerCount: 3 }), /\(speakerCount: is only allowed when speakerCountMode is exact\)/);
    await assertRefused(
      stt({ cropStartSeconds: 5, cropEndSeconds: 2 }),
      /\(cropEndSeconds: must be greater than cropStartSeconds\)/,
    );
    await assertRefused(
      stt({ cropEndSeconds: 'Infinity' }),
      /\(cropEndSeconds: must be number written in decimal, such as 2.5\)/,
    );
    await assertRefused(stt({ language: '../../etc' }), /\(language: must be a language code/);
    await assertRefused(stt({ speakerCountMode: undefined }), /\(speakerCountMode: is missing\)/);
    await assertRefused({ ...stt({}), modelPath: 42 }, /modelPath is not an absolute path/);
  });

  it('runs a good task in the same process afterwards', async () => {
    const task = await ttsTask('The engine is still here.');
    const outcome = await run(task);
    assert.equal(outcome.type, 'result', JSON.stringify(outcome));
    assert.ok((await stat(task.outputPath)).size > 1000);
  });
});
