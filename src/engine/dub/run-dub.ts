/**
 * The engine side of a dub, stage by stage in this one engine process (so Cancel, which ends the process,
 * stops whichever stage runs): the cues (the given subtitles, or the video transcribed with diarization),
 * their translation (the translate core), a voice for each speaker (library voices by language and gender),
 * the narration on the cues' timeline (the subtitle narration's fit solver), and the mix muxed into a copy of
 * the video. The copy is written as `<out>.partial` and renamed at the end.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transcript } from '../../subtitles/types';
import { parseSubtitles, SubtitleError } from '../../subtitles/parse';
import { formatVtt } from '../../subtitles/render-subtitles';
import { trackLanguage } from '../../subtitles/subtitle-language';
import type { SourceCue } from '../../translate/translate-cues';
import { translateWithModel } from '../llm/run-translate';
import { decodeToPcm16, SPEECH_SAMPLE_RATE } from '../media/decode-pcm16';
import { findMediaTools } from '../media/ffmpeg';
import {
  DUB_BACKEND,
  UserFacingError,
  type EnginePhase,
  type ProgressReporter,
  type TaskOutcome,
} from '../../engine-api/protocol';
import { runSttTask } from '../stt/run-stt';
import { TRANSCRIPT_FILE_NAME } from '../stt/write-transcript';
import { runTtsTask } from '../tts/run-tts';
import type { DubResult, DubSpeaker, DubStageSeconds, DubTask } from '../../engine-api/dub-types';
import { muxDub, probeVideo } from './mix-dub';
import { genderOfPitch, medianPitchHz } from './speaker-pitch';
import { chooseSpeakerVoices, NO_CLONING } from '../../voices/dub-voices';

/** The label of cues no speaker was named for, when others were. */
export const UNNAMED_SPEAKER = 'Unnamed';
/** The label of every cue when the subtitles name no speaker at all. */
export const ONLY_SPEAKER = 'Speaker';

/** Progress of a stage, 0–100, mapped into the dub's share `from`–`to`. */
function stageReporter(report: ProgressReporter, from: number, to: number, phase?: EnginePhase): ProgressReporter {
  return (stagePhase, progress) =>
    report(phase ?? stagePhase, from + ((to - from) * Math.min(100, Math.max(0, progress))) / 100);
}

async function timed<T>(
  seconds: Partial<DubStageSeconds>,
  stage: keyof DubStageSeconds,
  work: () => Promise<T>,
): Promise<T> {
  const started = process.hrtime.bigint();
  try {
    return await work();
  } finally {
    seconds[stage] = Math.round(Number(process.hrtime.bigint() - started) / 1e6) / 1000;
  }
}

/** The cues of the given subtitles, or of the video's transcript (made here, with diarization). */
async function sourceCues(task: DubTask, report: ProgressReporter): Promise<SourceCue[]> {
  if (task.subtitlesPath) {
    const text = (await readFile(task.subtitlesPath, 'utf8')).replace(/^\uFEFF/, '');
    try {
      return parseSubtitles(text, task.subtitlesFormat ?? 'srt').map(({ start, end, text: cueText, speaker }) => ({
        start,
        end,
        text: cueText,
        ...(speaker ? { speaker } : {}),
      }));
    } catch (error) {
      if (error instanceof SubtitleError) throw new UserFacingError(`The subtitles cannot be read: ${error.message}.`);
      throw error;
    }
  }
  if (!task.sttModelPath)
    throw new UserFacingError('The dub needs subtitles or a speech recognition model to transcribe the video.');
  const workDir = path.join(task.workDir, 'transcription');
  await mkdir(workDir, { recursive: true });
  await runSttTask(
    {
      kind: 'stt',
      inputPath: task.videoPath,
      workDir,
      modelPath: task.sttModelPath,
      options: { language: task.from ?? 'auto', punctuation: true, diarizationEnabled: true, speakerCountMode: 'auto' },
    },
    stageReporter(report, 2, 30),
  );
  const transcript = JSON.parse(await readFile(path.join(workDir, TRANSCRIPT_FILE_NAME), 'utf8')) as Transcript;
  return transcript.segments.map(({ start, end, text, speaker }) => ({
    start,
    end,
    text,
    ...(speaker ? { speaker } : {}),
  }));
}

/** Every cue with a speaker label, so each speaks with its speaker's voice. */
function labelled(cues: readonly SourceCue[]): SourceCue[] {
  const anyNamed = cues.some((cue) => cue.speaker);
  return cues.map((cue) => ({ ...cue, speaker: cue.speaker ?? (anyNamed ? UNNAMED_SPEAKER : ONLY_SPEAKER) }));
}

/** The speakers in order of first appearance, each with the gender their pitch in the original audio suggests. */
async function speakersOf(
  task: DubTask,
  cues: readonly SourceCue[],
  hasAudio: boolean,
): Promise<Array<{ label: string; pitch: number | null }>> {
  const labels = [...new Set(cues.map((cue) => cue.speaker!))];
  const pcm = hasAudio ? await decodeToPcm16(task.videoPath, findMediaTools()) : null;
  return labels.map((label) => ({
    label,
    pitch: pcm
      ? medianPitchHz(
          pcm,
          SPEECH_SAMPLE_RATE,
          cues.filter((cue) => cue.speaker === label),
        )
      : null,
  }));
}

export async function runDubTask(task: DubTask, report: ProgressReporter): Promise<TaskOutcome<DubResult>> {
  const tools = findMediaTools();
  const stageSeconds: Partial<DubStageSeconds> = { transcribe: 0 };
  report('decoding', 1);
  const video = await probeVideo(task.videoPath, tools);
  const found = await timed(stageSeconds, 'transcribe', () => sourceCues(task, report));
  const cues = labelled(found.filter((cue) => cue.text.trim() !== ''));
  if (cues.length === 0) {
    throw new UserFacingError(
      task.subtitlesPath
        ? 'The subtitles have no text to dub.'
        : 'No speech was recognized in the video, so there is nothing to dub.',
    );
  }

  report('loading_model', 30);
  const { translation, tokens } = await timed(stageSeconds, 'translate', () =>
    translateWithModel(cues, {
      modelPath: task.modelPath,
      to: task.to,
      ...(task.from ? { from: task.from } : {}),
      style: task.style,
      onProgress: (done) => report('translating', 31 + done * 27),
    }),
  );

  const speakers = await timed(stageSeconds, 'voices', async () => {
    const heard = await speakersOf(task, cues, video.hasAudio);
    const voices = chooseSpeakerVoices(
      heard.map(({ label, pitch }) => ({ label, gender: genderOfPitch(pitch) })),
      task.voices,
      NO_CLONING,
    );
    return heard.map(({ label, pitch }): DubSpeaker & { ref: NonNullable<ReturnType<typeof voices.get>>['ref'] } => {
      const chosen = voices.get(label)!;
      return {
        label,
        gender: genderOfPitch(pitch),
        medianPitchHz: pitch,
        voice: chosen.ref.name ?? chosen.ref.engineVoiceId,
        engine: chosen.ref.engine,
        source: chosen.source,
        ref: chosen.ref,
      };
    });
  });

  // Cues the model left empty have nothing to say; the rest keep their place in the report (indexes from 1).
  const spoken = translation.cues
    .map((cue, i) => ({ ...cue, index: i + 1 }))
    .filter((cue) => cue.lines.join(' ').trim() !== '');
  const narrationText = path.join(task.workDir, 'dub.vtt');
  const narrationPath = path.join(task.workDir, 'narration.wav');
  await writeFile(narrationText, formatVtt(spoken), 'utf8');
  const narrated = await timed(stageSeconds, 'narrate', () =>
    runTtsTask(
      {
        kind: 'tts',
        textPath: narrationText,
        outputPath: narrationPath,
        options: {
          voiceId: '',
          language: 'auto',
          inputFormat: 'vtt',
          outputFormat: 'wav',
          sampleRate: 48000,
          bitrateKbps: null,
          audioChannels: 'mono',
          steps: 32,
          guidanceScale: 2,
          speed: 1,
          duration: null,
          denoise: false,
          preprocessPrompt: true,
          postprocessOutput: true,
          trimSilence: true,
        },
        voice: {
          ...speakers[0].ref,
          speakers: Object.fromEntries(speakers.map((speaker) => [speaker.label, speaker.ref])),
        },
      },
      stageReporter(report, 60, 90, 'synthesizing'),
    ),
  );
  const cueReports = narrated.result.cues ?? [];

  report('encoding', 91);
  const partial = `${task.outputPath}.partial`;
  const language = trackLanguage(task.to);
  try {
    const codec = await timed(stageSeconds, 'mix', async () => {
      const written = await muxDub(
        { videoPath: task.videoPath, narrationPath, outputPath: partial, mix: task.mix, language, video },
        tools,
      );
      await rename(partial, task.outputPath);
      return written;
    });
    const written = await probeVideo(task.outputPath, tools);
    return {
      backend: DUB_BACKEND,
      result: {
        outputPath: task.outputPath,
        durationSeconds: Math.round(written.durationSeconds * 1000) / 1000,
        cues: cues.length,
        transcribed: !task.subtitlesPath,
        speakers: speakers.map(({ ref: _ref, ...speaker }) => speaker),
        spedUp: cueReports
          .filter((cue) => cue.speedFactor > 1 && !cue.overran)
          .map((cue) => spoken[cue.index - 1].index),
        overruns: cueReports
          .filter((cue) => cue.overran)
          .map((cue) => ({
            index: spoken[cue.index - 1].index,
            start: cue.start,
            end: cue.end,
            speaker: cue.speaker,
            overrunSeconds: Math.round(cue.overrunSeconds * 1000) / 1000,
          })),
        translation: {
          shortened: translation.shortened,
          flagged: translation.flagged,
          model: path.basename(task.modelPath),
          tokens,
        },
        audioTrack: { language, mix: task.mix, codec },
        stageSeconds: stageSeconds as DubStageSeconds,
      },
    };
  } finally {
    await rm(partial, { force: true });
    await rm(narrationPath, { force: true });
  }
}
