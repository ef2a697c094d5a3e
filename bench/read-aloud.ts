/**
 * Read Aloud figures, measured without VS Code through the very session the editor drives
 * (src/read-aloud/), with the engine in its child process and a wall-clock player:
 *   - time from the command (splitting the document included) to the first sentence's audio ready for the
 *     player, with a warm engine process, against the engine's own time for that first chunk in this
 *     process (target ≤ 1.2×; for espeak-ng also < 300 ms absolute); the same with a cold engine process,
 *     for information;
 *   - the largest gap between two sentences as played, against the configured pause (target: no longer
 *     than the pause, plus the timer's few milliseconds);
 *   - for espeak-ng, the first audio while a transcription runs in the same engine host (the engine scheduler
 *     keeps a process free for interactive speech; target < 300 ms), beside the same without it, with the load;
 *     and while a transcription and a timeline's waveform hold both processes (the waveform stops and yields
 *     its process, still warm, to speech; target < 300 ms); and while J TTS jobs hold the job lane of a host
 *     capped at (J+1)/J processes, for the default J of this machine and J = 2 (target ≤ 300 ms).

 * For espeak-ng and a sherpa-onnx Piper voice (the synthetic random-weight model: its timing is real, its
 * words are not).
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openSpeechEngine } from '../src/engine/tts/speech-engine';
import { espeakRateForSpeed, openEspeakVoice } from '../src/engine/tts/synthesizers/espeak';
import { ensureEspeakData } from '../src/engine/tts/synthesizers/espeak-data';
import { compileValidators } from '../src/contract/validation';
import { EngineHost } from '../src/jobs/engine-host';
import { defaultEngineLimits } from '../src/jobs/engine-scheduler';
import { voiceIdFor } from '../src/voices/voice-id';
import { ClockPlayer } from '../src/read-aloud/clock-player';
import { engineSynthesizer } from '../src/read-aloud/engine-speaker';
import { ReadingSession } from '../src/read-aloud/reading-session';
import { readingSentences } from '../src/text/reading-sentences';
import { silentLogger } from '../src/util/log';
import type { TtsVoiceRef } from '../src/voices/voice-ref';
import type { SttOptions } from '../src/contract/types';
import { figure, median, type Figure } from './report';
import { engineConfigFromEnvironment } from '../src/config/engine-environment';

const ENGINE_WORKER = path.resolve(__dirname, '..', 'dist', 'engine-worker.js');
const MODELS = process.env.SPEECH_TEST_MODELS ?? path.resolve(__dirname, '..', '..', 'shared', 'models');
const RUNS = 7;
const PAUSE_SECONDS = 0.3;
const ESPEAK_FIRST_AUDIO_TARGET_MS = 300;
const RATIO_TARGET = 1.2;

/** A manuscript chapter: a heading, paragraphs, a list and a code block, about 6 000 characters. */
function chapter(): string {
  const paragraph = (n: number): string =>
    `Paragraph ${n} begins plainly. The writer reads it aloud to hear what the eye skips, *slowly* and with care. ` +
    `A [link to notes](https://example.com/${n}) stays silent, and so does \`inline code\`. It ends here.`;
  const body = Array.from({ length: 20 }, (_, i) => paragraph(i + 1)).join('\n\n');
  return `# Chapter one\n\n${body}\n\n- A list item.\n- Another item.\n\n\`\`\`ts\nconst silent = true;\n\`\`\`\n`;
}

/** The engine's own time for the first sentence, in this process, warm (its best case: no IPC, no process). */
async function ownFirstChunkMs(voice: TtsVoiceRef, text: string): Promise<number> {
  let speak: () => Promise<unknown>;
  let dispose = (): void => undefined;
  if (voice.engine === 'espeak-ng') {
    const espeak = await openEspeakVoice(voice.engineVoiceId, espeakRateForSpeed(1));
    speak = async () => espeak.synthesizeWords(text);
  } else {
    const { engine } = await openSpeechEngine(voice, { speed: 1, language: 'auto', steps: 32, guidanceScale: 2 });
    speak = () => engine.synthesize(text);
    dispose = () => engine.dispose?.();
  }
  await speak();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await speak();
    times.push(performance.now() - started);
  }
  dispose();
  return median(times);
}

/** Milliseconds from the command to the first sentence's audio handed to the player. */
async function commandToFirstAudioMs(host: EngineHost, voice: TtsVoiceRef, document: string): Promise<number> {
  const started = performance.now();
  const sentences = readingSentences(document, 'markdown');
  const player = new ClockPlayer();
  const session = new ReadingSession(sentences, {
    synthesize: engineSynthesizer(host, voice),
    player,
    pauseSeconds: PAUSE_SECONDS,
  });
  player.connect(session);
  const first = new Promise<number>((resolve) => session.on('audio', () => resolve(performance.now() - started)));
  session.start();
  const ms = await first;
  session.stop();
  return ms;
}

/**
 * Plays the first sentences through to the end. The gap the engine causes between two sentences is the
 * pause, or longer when the next sentence's audio arrived later than the pause after the last one ended;
 * the gap as the wall-clock player played it adds its timer's lateness.
 */
async function largestGapMs(
  host: EngineHost,
  voice: TtsVoiceRef,
  document: string,
  count: number,
): Promise<{ engine: number; played: number }> {
  const sentences = readingSentences(document, 'markdown').slice(0, count);
  const player = new ClockPlayer();
  const session = new ReadingSession(sentences, {
    synthesize: engineSynthesizer(host, voice),
    player,
    pauseSeconds: PAUSE_SECONDS,
  });
  player.connect(session);
  const arrived = new Map<number, number>();
  session.on('audio', (index) => arrived.set(index, performance.now()));
  const over = new Promise<void>((resolve) =>
    session.on('state', (state) => (state === 'finished' || state === 'stopped') && resolve()),
  );
  session.start();
  await over;
  let engine = 0;
  let played = 0;
  for (let i = 1; i < player.played.length; i++) {
    const ended = player.played[i - 1].endedAt!;
    engine = Math.max(engine, PAUSE_SECONDS * 1000, arrived.get(player.played[i].index)! - ended);
    played = Math.max(played, player.played[i].startedAt - ended);
  }
  return { engine, played };
}

async function benchVoice(label: string, voice: TtsVoiceRef, absoluteTargetMs?: number): Promise<Figure[]> {
  const document = chapter();
  const first = readingSentences(document, 'markdown')[0].text;
  const own = await ownFirstChunkMs(voice, first);
  const cold = new EngineHost({
    workerPath: ENGINE_WORKER,
    log: silentLogger,
    config: () => engineConfigFromEnvironment(),
  });
  let coldMs: number;
  try {
    coldMs = await commandToFirstAudioMs(cold, voice, document);
  } finally {
    await cold.close();
  }
  const host = new EngineHost({
    workerPath: ENGINE_WORKER,
    log: silentLogger,
    config: () => engineConfigFromEnvironment(),
  });
  try {
    await commandToFirstAudioMs(host, voice, document);
    const warm: number[] = [];
    for (let i = 0; i < RUNS; i++) warm.push(await commandToFirstAudioMs(host, voice, document));
    const warmMs = median(warm);
    const gap = await largestGapMs(host, voice, document, 6);
    return [
      figure(
        'readaloud',
        `${label}: command → first audio ready (warm engine)`,
        warmMs,
        'ms',
        absoluteTargetMs ? { kind: 'max', value: absoluteTargetMs } : undefined,
        `median of ${RUNS}`,
      ),
      figure(
        'readaloud',
        `${label}: that against the engine's own first chunk`,
        warmMs / own,
        '×',
        { kind: 'max', value: RATIO_TARGET },
        `engine alone ${own.toFixed(1)} ms for "${first}": ${(warmMs - own).toFixed(0)} ms more`,
      ),
      figure(
        'readaloud',
        `${label}: command → first audio ready (cold engine process)`,
        coldMs,
        'ms',
        undefined,
        'process start and engine load included',
      ),
      figure(
        'readaloud',
        `${label}: largest gap between sentences`,
        gap.engine,
        'ms',
        { kind: 'max', value: PAUSE_SECONDS * 1000 },
        `configured pause ${PAUSE_SECONDS * 1000} ms, 6 sentences; ${gap.played.toFixed(0)} ms with the wall-clock player's timer`,
      ),
    ];
  } finally {
    await host.close();
  }
}

const STT_OPTIONS: SttOptions = {
  language: 'en',
  punctuation: false,
  diarizationEnabled: false,
  speakerCountMode: 'auto',
};

/**
 * Read Aloud's first audio (warm) while the same engine host transcribes two minutes of speech, one
 * transcription after another so one always runs, against the same without the transcription.
 */
async function firstAudioUnderTranscription(
  voice: TtsVoiceRef,
  scratch: string,
  analysisMedia?: string,
): Promise<Figure[]> {
  const document = chapter();
  let analysing: Promise<void> | undefined;
  let waveforms = 0;
  const host = new EngineHost({
    workerPath: ENGINE_WORKER,
    log: silentLogger,
    config: () => engineConfigFromEnvironment(),
  });
  const stop = new AbortController();
  let transcriptions = 0;
  let transcribing: Promise<void> | undefined;
  try {
    // The reference first, on the same warm host with nothing else to do.
    await commandToFirstAudioMs(host, voice, document);
    const alone: number[] = [];
    for (let i = 0; i < RUNS; i++) alone.push(await commandToFirstAudioMs(host, voice, document));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    transcribing = (async () => {
      while (!stop.signal.aborted) {
        const workDir = path.join(scratch, `stt-${transcriptions++}`);
        await mkdir(workDir, { recursive: true });
        const inputPath = path.join(workDir, 'input.wav');
        await copyFile(path.join(MODELS, 'audio', 'align-dev', 'dev-a.wav'), inputPath);
        const task = {
          kind: 'stt' as const,
          inputPath,
          workDir,
          modelPath: path.join(MODELS, 'whisper', 'ggml-synthetic-random.bin'),
          options: STT_OPTIONS,
        };
        try {
          await host.run(`bench-stt-${transcriptions}`, task, {
            signal: stop.signal,
            onProgress: (phase) => phase === 'transcribing' && started(),
          });
        } catch (error) {
          // Only the end of the bench may stop it: a failing transcription would leave nothing to measure against.
          if (!stop.signal.aborted) throw error;
        }
      }
    })();
    await Promise.race([running, transcribing]);
    if (analysisMedia) {
      // A timeline's waveform of a long recording, again and again (a fresh data folder each time: no cache),
      // borrowing the second process beside the transcription.
      analysing = (async () => {
        while (!stop.signal.aborted) {
          const dataDir = path.join(scratch, `waveform-${waveforms++}`);
          await host
            .waveform({ kind: 'waveform', mediaPath: analysisMedia, dataDir, bucketsPerSecond: 100 }, stop.signal)
            .catch((error: unknown) => {
              if (!stop.signal.aborted) throw error;
            });
        }
      })();
    }
    const busy: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Each reading starts while both processes are busy, so each one has to take a process back.
      const bothBusy = (): boolean =>
        host.scheduler.activeFor('job') > 0 &&
        host.scheduler.activeFor('analysis') > 0 &&
        host.scheduler.activeFor('interactive') === 0;
      for (let waited = 0; analysisMedia && !bothBusy() && waited < 30_000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      // The waveform process has just started: give it time to be in the middle of its work.
      if (analysisMedia) await new Promise((resolve) => setTimeout(resolve, 300));
      busy.push(await commandToFirstAudioMs(host, voice, document));
    }
    const load = os.loadavg()[0].toFixed(1);
    const ratio = (median(busy) / median(alone)).toFixed(2);
    if (analysisMedia) {
      return [
        figure(
          'readaloud',
          "espeak-ng: Read Aloud's first audio while a transcription and a waveform hold both processes",
          median(busy),
          'ms',
          { kind: 'max', value: ESPEAK_FIRST_AUDIO_TARGET_MS },
          `median of ${RUNS}; the waveform yields its process, which stays warm for the sentence; ${median(alone).toFixed(0)} ms on an idle warm host (${ratio}×); load ${load}; cap ${host.scheduler.limits.maxProcesses}; the waveform gave its process back ${host.scheduler.reclaimed} times (kept warm ${host.yields.kept}, ended ${host.yields.ended}; ${waveforms} waveform asked for)`,
        ),
      ];
    }
    return [
      figure(
        'readaloud',
        "espeak-ng: Read Aloud's first audio while a transcription runs",
        median(busy),
        'ms',
        { kind: 'max', value: ESPEAK_FIRST_AUDIO_TARGET_MS },
        `median of ${RUNS}, warm; ${median(alone).toFixed(0)} ms without it (${ratio}×); load ${load}; ${host.pids.length} engine processes (cap ${host.scheduler.limits.maxProcesses}); transcription ${transcriptions} still running`,
      ),
      figure(
        'readaloud',
        "espeak-ng: Read Aloud's first audio, the same host without the transcription (reference)",
        median(alone),
        'ms',
        undefined,
        `median of ${RUNS}, warm`,
      ),
    ];
  } finally {
    stop.abort();
    await transcribing?.catch(() => undefined);
    await analysing?.catch(() => undefined);
    await host.close();
  }
}

/**
 * Read Aloud's first audio (warm) while `lanes` TTS jobs' tasks (a long espeak-ng narration each, again and
 * again) hold every job process of a host capped at lanes + 1 processes, as `SPEECH_STUDIO_ENGINE_PROCESSES`
 * = (J+1)/J gives a server.
 */
async function firstAudioWhileJobsRun(voice: TtsVoiceRef, scratch: string, lanes: number): Promise<Figure[]> {
  const document = chapter();
  const checked = compileValidators().ttsRequest({ voiceId: voiceIdFor('espeak-ng', 'gmw/en-US'), text: 'x' });
  if (!checked.ok) throw new Error(checked.message);
  const { text: _unused, ...options } = checked.value;
  const textPath = path.join(scratch, `narration-${lanes}.txt`);
  await writeFile(
    textPath,
    Array.from({ length: 300 }, (_, i) => `This is sentence ${i + 1} of a narration the job queue speaks.`).join(' '),
    'utf8',
  );
  const host = new EngineHost({
    workerPath: ENGINE_WORKER,
    log: silentLogger,
    config: () => engineConfigFromEnvironment(),
    limits: { maxProcesses: lanes + 1, maxJobProcesses: lanes },
  });
  const stop = new AbortController();
  let narrations = 0;
  const speaking = new Set<number>();
  const jobs: Promise<void>[] = [];
  try {
    await commandToFirstAudioMs(host, voice, document);
    const alone: number[] = [];
    for (let i = 0; i < RUNS; i++) alone.push(await commandToFirstAudioMs(host, voice, document));
    for (let lane = 0; lane < lanes; lane++) {
      jobs.push(
        (async () => {
          while (!stop.signal.aborted) {
            const n = narrations++;
            const task = {
              kind: 'tts' as const,
              textPath,
              outputPath: path.join(scratch, `narration-${lanes}-${n}.wav`),
              options,
              voice: { engine: 'espeak-ng' as const, engineVoiceId: 'gmw/en-US', languageCode: 'en-US' },
            };
            try {
              await host.run(`bench-narration-${n}`, task, {
                signal: stop.signal,
                onProgress: (phase) => phase === 'synthesizing' && speaking.add(lane),
              });
            } catch (error) {
              if (!stop.signal.aborted) throw error;
            }
            await rm(task.outputPath, { force: true });
          }
        })(),
      );
    }
    for (
      let waited = 0;
      (speaking.size < lanes || host.scheduler.activeFor('job') < lanes) && waited < 60_000;
      waited += 20
    )
      await new Promise((resolve) => setTimeout(resolve, 20));
    const busy: number[] = [];
    for (let i = 0; i < RUNS; i++) busy.push(await commandToFirstAudioMs(host, voice, document));
    return [
      figure(
        'readaloud',
        `espeak-ng: Read Aloud's first audio while J = ${lanes} TTS jobs run`,
        median(busy),
        'ms',
        { kind: 'max', value: ESPEAK_FIRST_AUDIO_TARGET_MS },
        `median of ${RUNS}, warm; ${median(alone).toFixed(0)} ms on the idle host (${(median(busy) / median(alone)).toFixed(2)}×); jobs running ${host.scheduler.activeFor('job')} of ${lanes}; cap ${lanes + 1}/${lanes}; ${os.availableParallelism()} cores; load ${os.loadavg()[0].toFixed(1)}`,
      ),
    ];
  } finally {
    stop.abort();
    await Promise.all(jobs.map((job) => job.catch(() => undefined)));
    await host.close();
  }
}

export async function runReadAloudBench(): Promise<Figure[]> {
  const espeak: TtsVoiceRef = {
    engine: 'espeak-ng',
    engineVoiceId: 'gmw/en-US',
    languageCode: 'en-US',
    name: 'English (America)',
  };
  const figures = await benchVoice('espeak-ng', espeak, ESPEAK_FIRST_AUDIO_TARGET_MS);
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'bench-read-aloud-stt-'));
  try {
    figures.push(...(await firstAudioUnderTranscription(espeak, scratch)));
    const long = path.join(scratch, 'twenty-minutes.wav');
    await promisify(execFile)('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-stream_loop',
      '9',
      '-i',
      path.join(MODELS, 'audio', 'align-dev', 'dev-a.wav'),
      '-c',
      'copy',
      long,
    ]);
    figures.push(...(await firstAudioUnderTranscription(espeak, scratch, long)));
    for (const lanes of new Set([defaultEngineLimits().maxJobProcesses, 2]))
      figures.push(...(await firstAudioWhileJobsRun(espeak, scratch, lanes)));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-read-aloud-'));
  try {
    const espeakDataDir = path.join(dir, 'espeak-ng-data');
    await ensureEspeakData(espeakDataDir);
    const piper = path.join(MODELS, 'sherpa-synthetic', 'vits-piper');
    const voice: TtsVoiceRef = {
      engine: 'sherpa-onnx',
      engineVoiceId: 'synthetic-vits',
      languageCode: 'en-US',
      name: 'Synthetic Piper',
      model: {
        kind: 'vits',
        files: { model: path.join(piper, 'model.onnx'), tokens: path.join(piper, 'tokens.txt') },
        speakerId: 0,
        espeakDataDir,
      },
    };
    figures.push(...(await benchVoice('sherpa-onnx Piper (synthetic)', voice)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return figures;
}
