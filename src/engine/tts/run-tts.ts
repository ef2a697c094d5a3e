/**
 * Runs one TTS job in the engine process, in two passes over a temporary recording at the output rate:
 *   1. synthesis: plain text in chunks (record-text.ts), processed next to the synthesis in an audio thread
 *      (speech-front.ts: stretch, trim, resample, denoise, measure), or subtitle cues on their timeline
 *      (narrate.ts);
 *   2. rendering: duration stretch, loudness gain and peak limit, encoding (render.ts).
 * Audio streams through both passes, so memory stays flat however long the text is.
 */
import { readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { TtsResult } from '../../contract/types';
import { lexiconForEngine } from '../../lexicon/engine-lexicon';
import { normalizeText } from '../../text/normalize';
import { openAudioSink, type AudioSink } from '../audio/audio-sink';
import { DiskGuard } from '../audio/disk-guard';
import {
  effectiveBitrateKbps,
  estimatedOutputBytes,
  isWrittenWithoutFfmpeg,
  MEDIA_TYPES,
  type EncoderSettings,
} from '../audio/encoder-settings';
import { runTool } from '../media/ffmpeg';
import { isWasmMedia, mediaToolchain, type MediaToolchain } from '../media/media-toolchain';
import {
  UserFacingError,
  type EnginePhase,
  type ProgressReporter,
  type TaskOutcome,
  type TtsTask,
} from '../../engine-api/protocol';
import { recordNarration, type CueReport } from './narrate';
import { recordText } from './record-text';
import { normalizationGainDb, PEAK_CEILING_DBFS, renderRecording, TARGET_LUFS, type RenderPlan } from './render';
import { planDuration, type DurationReport } from './duration-plan';
import { ignoredOptions } from './ignored-options';
import { readCues } from './read-cues';
import { openSpeechEngine } from './speech-engine';
import type { EngineSettings, SpeechEngine } from './synthesizers/synthesizer';
import { startSpeechFront, type SpeechFront } from './speech-front';
import { SpeechRecorder, type RecordingSummary } from './speech-recorder';
import { DEFAULT_MAX_CHUNK_CHARS, splitIntoChunks } from './text-chunks';
import { liveChunks, speakTextLive } from './live-text';
import { parseSsml } from '../../text/ssml/parse-ssml';
import { recordSsml } from './record-ssml';
import { ssmlEngines, type SsmlEngines } from './ssml-engines';
import { WordClock } from './word-clock';
import type { SpokenWord } from '../../audiobook/read-along/word-clips';

const SYNTHESIS_START = 5;
const SYNTHESIS_END = 90;
const RENDER_END = 98;

/** What a caller inside the engine process may learn beyond the result: the book export's word times. */
export interface TtsTaskHooks {
  /**
   * Called once the recording is made, with where each word starts in the audio, when the voice reports
   * word times (espeak-ng) for plain text; not called otherwise.
   */
  onWords?(words: SpokenWord[]): void;
}

export async function runTtsTask(
  task: TtsTask,
  report: ProgressReporter,
  hooks: TtsTaskHooks = {},
): Promise<TaskOutcome<TtsResult>> {
  const { options, voice } = task;
  const source = await readFile(task.textPath, 'utf8');
  const narration = options.inputFormat !== 'txt';
  const cues = narration ? readCues(source, options.inputFormat as 'srt' | 'vtt') : undefined;
  if (!narration && source.trim() === '')
    throw new UserFacingError('The text produced no speech: it is empty or only whitespace.');
  const encoder: EncoderSettings = {
    format: task.encodeAs ?? options.outputFormat,
    sampleRate: options.sampleRate,
    channels: options.audioChannels === 'stereo' ? 2 : 1,
    bitrateKbps: options.bitrateKbps,
  };
  const ffmpeg = mediaToolchain();
  // Fail before minutes of synthesis, not after, when the format needs ffmpeg and it is missing.
  if (!isWrittenWithoutFfmpeg(encoder.format) && !isWasmMedia(ffmpeg))
    await runTool('ffmpeg', ffmpeg.ffmpeg, ['-version']);

  const settings: EngineSettings = {
    speed: options.speed,
    language: options.language,
    steps: options.steps,
    guidanceScale: options.guidanceScale,
  };
  const { engine, notes } = await openSpeechEngine(voice, settings);
  const engines: SpeechEngine[] = [engine];
  const spokenLanguage = notes.language ?? voice.languageCode;
  const lexicon = lexiconForEngine(task.lexicon, spokenLanguage, voice.engine);
  const prepare = (text: string): string =>
    lexicon.apply(options.preprocessPrompt ? normalizeText(text, spokenLanguage) : text);
  const progress = risingOnly(report);
  const partialPath = `${task.outputPath}.partial`;
  const spoolPath = `${task.outputPath}.speech.pcm`;
  let sink: AudioSink | undefined;
  let front: SpeechFront | undefined;
  let recorder: SpeechRecorder | undefined;
  let markup: SsmlEngines | undefined;
  let ssmlIgnored: Record<string, string> = {};
  try {
    progress('synthesizing', SYNTHESIS_START);
    const synthesisProgress = (fraction: number): void =>
      progress('synthesizing', SYNTHESIS_START + (SYNTHESIS_END - SYNTHESIS_START) * fraction);
    let chunks = 0;
    let cueReports: CueReport[] | undefined;
    let recording: RecordingSummary;
    if (task.live && !cues && !task.ssml && options.duration === null) {
      return await runLive(task, engine, encoder, ffmpeg, prepare(source), {
        progress,
        synthesisProgress,
        spoolPath,
        partialPath,
        notes,
        spokenLanguage,
        source,
      });
    }
    if (cues) {
      recorder = await SpeechRecorder.create(spoolPath, options.sampleRate, { denoise: options.denoise });
      const speakerEngines = new Map<string, Promise<SpeechEngine>>();
      cueReports = await recordNarration(cues, recorder, {
        speed: options.speed,
        spokenText: (cue) => prepare(cue.text).trim(),
        engineFor: (speaker) => {
          const other = speaker ? findSpeakerVoice(voice.speakers, speaker) : undefined;
          if (!other || !speaker) return Promise.resolve(engine);
          if (!speakerEngines.has(speaker)) {
            speakerEngines.set(
              speaker,
              openSpeechEngine(other, settings).then((opened) => (engines.push(opened.engine), opened.engine)),
            );
          }
          return speakerEngines.get(speaker)!;
        },
        onCue: (done) => synthesisProgress(done / cues.length),
      });
      chunks = cues.length;
      recording = await recorder.finish();
    } else if (task.ssml) {
      // Admission read the markup already; the engine reads it again from the job's text file.
      const plan = parseSsml(source, spokenLanguage);
      recorder = await SpeechRecorder.create(spoolPath, options.sampleRate, { denoise: options.denoise });
      markup = ssmlEngines(task, settings, ffmpeg);
      const ignoredByRecorder = await recordSsml(plan, recorder, {
        speed: options.speed,
        language: options.language,
        engineFor: markup.engineFor.bind(markup),
        prepare: (text) => prepare(text),
        audio: markup.audio.bind(markup),
        onStep: (done, total) => synthesisProgress(done / total),
      });
      ssmlIgnored = { ...ignoredByRecorder, ...markup.ignored };
      chunks = plan.steps.length;
      recording = await recorder.finish();
    } else {
      const textChunks = splitIntoChunks(prepare(source), DEFAULT_MAX_CHUNK_CHARS, spokenLanguage);
      if (textChunks.length === 0)
        throw new UserFacingError('The text produced no speech: it is empty or only whitespace.');
      const total = textChunks.reduce((sum, chunk) => sum + chunk.length, 0);
      front = await startSpeechFront({
        spoolPath,
        inputRate: engine.sampleRate,
        outputRate: options.sampleRate,
        stretch: engine.nativeSpeed ? 1 : options.speed,
        trimSilence: options.trimSilence,
        denoise: options.denoise,
      });
      // Word times hold only where nothing stretches the audio (an engine's own rate keeps them true).
      const words =
        hooks.onWords && engine.wordEvents && engine.nativeSpeed && options.duration === null
          ? new WordClock(engine.sampleRate)
          : undefined;
      await recordText(textChunks, engine, front, {
        speed: options.speed,
        onChunk: (done) => synthesisProgress(done / total),
        ...(words ? { words } : {}),
      });
      recording = await front.finish();
      front = undefined;
      if (words) hooks.onWords!(words.times(options.trimSilence));
      chunks = textChunks.length;
    }
    if (!recording.heardSpeech) {
      throw new UserFacingError(
        `The text produced no speech: ${engine.backend} found nothing it could pronounce in it.`,
      );
    }

    const duration: DurationReport | null =
      !narration && options.duration !== null
        ? planDuration(recording.length, recording.sampleRate, options.duration, options.speed)
        : null;
    const measuredLufs = recording.lufs;
    const gainDb = normalizationGainDb(measuredLufs);
    const plan: RenderPlan = {
      stretch: duration?.stretchFactor ?? 1,
      targetSamples: duration?.targetSamples,
      gain: options.postprocessOutput ? 10 ** (gainDb / 20) : null,
    };
    const outputFrames = plan.targetSamples ?? Math.ceil(recording.length / plan.stretch);
    await new DiskGuard(path.dirname(partialPath)).ensureRoom(
      estimatedOutputBytes(encoder, outputFrames),
      `The ${encoder.format} output`,
    );
    sink = await openAudioSink(partialPath, encoder, ffmpeg);
    progress('postprocessing', SYNTHESIS_END);
    await renderRecording(recording, sink, plan, (fraction) =>
      progress('postprocessing', SYNTHESIS_END + (RENDER_END - SYNTHESIS_END) * fraction),
    );
    progress('encoding', RENDER_END);
    const { bytes, frames } = await sink.finish();
    sink = undefined;
    await rename(partialPath, task.outputPath);
    progress('encoding', 99);
    const durationSeconds = round3(frames / options.sampleRate);
    return {
      backend: engine.backend,
      result: {
        ...audioResult(task, engine, encoder, { durationSeconds, bytes, source, chunks, language: spokenLanguage }),
        duration: duration && { ...duration.summary, achievedSeconds: durationSeconds },
        loudness: options.postprocessOutput
          ? {
              targetLufs: TARGET_LUFS,
              measuredLufs: measuredLufs === null ? null : round3(measuredLufs),
              gainDb: round3(gainDb),
              peakCeilingDbfs: PEAK_CEILING_DBFS,
            }
          : null,
        ...(cueReports ? { cues: cueReports, overranCues: cueReports.filter((cue) => cue.overran).length } : {}),
        ...(lexicon.report() ? { lexicon: lexicon.report() } : {}),
        ignoredOptions: { ...ignoredOptions(options, voice, notes, engine.backend), ...ssmlIgnored },
      },
    };
  } catch (error) {
    await front?.abort();
    await sink?.abort();
    await rm(partialPath, { force: true });
    throw error;
  } finally {
    await recorder?.dispose();
    markup?.dispose();
    await rm(spoolPath, { force: true });
    for (const opened of engines) opened.dispose?.();
  }
}

interface LiveContext {
  progress: ProgressReporter;
  synthesisProgress(fraction: number): void;
  spoolPath: string;
  partialPath: string;
  notes: Awaited<ReturnType<typeof openSpeechEngine>>['notes'];
  spokenLanguage: string;
  source: string;
}

/** The live variant (task.live): the output grows chunk by chunk while the engine speaks (live-text.ts). */
async function runLive(
  task: TtsTask,
  engine: SpeechEngine,
  encoder: EncoderSettings,
  ffmpeg: MediaToolchain,
  text: string,
  context: LiveContext,
): Promise<TaskOutcome<TtsResult>> {
  const { options, voice } = task;
  const textChunks = liveChunks(text);
  if (textChunks.length === 0)
    throw new UserFacingError('The text produced no speech: it is empty or only whitespace.');
  const total = textChunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const sink = await openAudioSink(context.partialPath, encoder, ffmpeg, true);
  let finished = false;
  try {
    const summary = await speakTextLive(textChunks, engine, sink, {
      front: {
        spoolPath: context.spoolPath,
        outputRate: options.sampleRate,
        stretch: engine.nativeSpeed ? 1 : options.speed,
        trimSilence: options.trimSilence,
        denoise: options.denoise,
      },
      speed: options.speed,
      normalize: options.postprocessOutput,
      onChunk: (done) => context.synthesisProgress(done / total),
    });
    if (!summary.heardSpeech) {
      throw new UserFacingError(
        `The text produced no speech: ${engine.backend} found nothing it could pronounce in it.`,
      );
    }
    context.progress('encoding', RENDER_END);
    const { bytes, frames } = await sink.finish();
    finished = true;
    await rename(context.partialPath, task.outputPath);
    const durationSeconds = round3(frames / options.sampleRate);
    return {
      backend: engine.backend,
      result: {
        ...audioResult(task, engine, encoder, {
          durationSeconds,
          bytes,
          source: context.source,
          chunks: textChunks.length,
          language: context.spokenLanguage,
        }),
        duration: null,
        live: true,
        loudness: options.postprocessOutput
          ? {
              targetLufs: TARGET_LUFS,
              measuredLufs: summary.measuredLufs === null ? null : round3(summary.measuredLufs),
              gainDb: round3(summary.gainDb),
              peakCeilingDbfs: PEAK_CEILING_DBFS,
              measuredOn: 'first-chunk',
            }
          : null,
        ignoredOptions: ignoredOptions(options, voice, context.notes, engine.backend),
      },
    };
  } finally {
    if (!finished) {
      await sink.abort();
      await rm(context.partialPath, { force: true });
    }
  }
}

function findSpeakerVoice<T>(speakers: Record<string, T> | undefined, name: string): T | undefined {
  if (!speakers) return undefined;
  const wanted = name.trim().toLowerCase();
  const key = Object.keys(speakers).find((candidate) => candidate.trim().toLowerCase() === wanted);
  return key === undefined ? undefined : speakers[key];
}

/** Forwards progress to `report` only when it rose (by at least 0.1), rounded to one decimal. */
function risingOnly(report: ProgressReporter): ProgressReporter {
  let last = -Infinity;
  return (phase: EnginePhase, value: number) => {
    const rounded = Math.round(value * 10) / 10;
    if (rounded <= last) return;
    last = rounded;
    report(phase, rounded);
  };
}

/** The result fields every TTS job reports, whether its audio was rendered after synthesis or written live. */
function audioResult(
  task: TtsTask,
  engine: SpeechEngine,
  encoder: EncoderSettings,
  made: { durationSeconds: number; bytes: number; source: string; chunks: number; language: string },
): Pick<
  TtsResult,
  | 'mediaType'
  | 'outputFormat'
  | 'sampleRate'
  | 'audioChannels'
  | 'durationSeconds'
  | 'bytes'
  | 'characters'
  | 'chunks'
  | 'bitrateKbps'
  | 'voice'
  | 'language'
  | 'speed'
> {
  const { options, voice } = task;
  return {
    mediaType: MEDIA_TYPES[options.outputFormat],
    outputFormat: options.outputFormat,
    sampleRate: options.sampleRate,
    audioChannels: options.audioChannels,
    durationSeconds: made.durationSeconds,
    bytes: made.bytes,
    characters: countCodePoints(made.source),
    chunks: made.chunks,
    bitrateKbps: effectiveBitrateKbps(encoder),
    voice: { name: voice.name ?? voice.engineVoiceId, engine: voice.engine, languageCode: voice.languageCode },
    language: made.language,
    speed: { value: options.speed, method: engine.nativeSpeed ? 'engine-rate' : 'time-stretch' },
  };
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Characters as the API counts them (JSON Schema `maxLength` counts code points). */
function countCodePoints(text: string): number {
  return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
}
