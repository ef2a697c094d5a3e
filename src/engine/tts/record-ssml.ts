/**
 * The first pass of an SSML job: each step of the plan (src/text/ssml/) goes to the recording in order —
 * speech in its voice, language, rate, pitch and volume, trimmed to what is audible; pauses as exact silence;
 * audio files decoded and inserted. What an engine could not honour comes back as `ignoredOptions` entries.
 *
 * Speech is trimmed to a small margin of its quiet edges, and each pause is shortened by the margins around
 * it, so the silence between the last audible sample before a break and the first after it is the break.
 */
import type { SpeechStyle, SsmlPlan, SsmlStep } from '../../text/ssml/ssml-plan';
import { createFastResampler } from '../../audio/simd-resample-kernel';
import { concatSamples } from '../audio/samples';
import { firstAudibleIndex, lastAudibleIndex } from '../audio/silence-trimmer';
import { stretchClip } from '../audio/time-stretch';
import type { SpeechEngine } from './synthesizers/synthesizer';
import type { SpeechRecorder } from './speech-recorder';
import { splitIntoChunks } from './text-chunks';

/** Quiet kept at each edge of a run of speech, so onsets and releases are not clipped. */
export const SPEECH_MARGIN_SECONDS = 0.01;
/** Silence between two runs of speech with no pause between them (a change of voice or prosody mid-sentence). */
const JOIN_SECONDS = 0.06;

export interface SsmlRecordingOptions {
  /** The job's speed; a step's rate multiplies it. */
  speed: number;
  /** The job's language (`auto` = the voice's). */
  language: string;
  /** The engine for a style's voice, language and speed (the caller caches and disposes them). */
  engineFor(style: SpeechStyle, speed: number): Promise<SpeechEngine>;
  /** Text as the engine will read it (lexicon, normalization) in a language. */
  prepare(text: string, language: string | undefined): string;
  /** The samples of an `<audio>` file at `rate`, or a reason it cannot be played (its fallback text is then spoken). */
  audio(src: string, rate: number): Promise<Int16Array | string>;
  onStep(done: number, total: number): void;
  /** Step `index` (speech or audio) begins at sample `at` of the recording: Read Aloud's highlight follows it. */
  onSound?(index: number, at: number): void;
}

/** What the recorder needs of a recording: a file spool for jobs, memory for Read Aloud (speak-ssml.ts). */
export type SsmlRecording = Pick<SpeechRecorder, 'sampleRate' | 'length' | 'write' | 'padTo'>;

export async function recordSsml(
  plan: SsmlPlan,
  recorder: SsmlRecording,
  options: SsmlRecordingOptions,
): Promise<Record<string, string>> {
  const rate = recorder.sampleRate;
  const margin = Math.round(rate * SPEECH_MARGIN_SECONDS);
  const ignored: Record<string, string> = {};
  const note = (key: string, reason: string): void => {
    ignored[`ssml ${key}`] ??= reason;
  };
  for (const [key, reason] of Object.entries(plan.ignored)) note(key, reason);
  let previous: SsmlStep['kind'] | undefined;
  /** Whether the last sound written was speech, which ends in a quiet margin (audio files end where they end). */
  let endsInMargin = false;
  for (const [index, step] of plan.steps.entries()) {
    if (step.kind === 'pause') {
      const edges = (endsInMargin ? margin : 0) + (plan.steps[index + 1]?.kind === 'speech' ? margin : 0);
      await recorder.padTo(recorder.length + Math.max(0, Math.round(step.seconds * rate) - edges));
    } else {
      let sound: Int16Array;
      let spoken = true;
      if (step.kind === 'audio') {
        const inserted = await options.audio(step.src, rate);
        if (typeof inserted === 'string') {
          note('audio', `${inserted}; its text was spoken instead`);
          sound = step.fallback
            ? await speak({ kind: 'speech', text: step.fallback, style: step.style, at: step.at }, rate, options, note)
            : new Int16Array(0);
        } else {
          sound = inserted;
          spoken = false;
        }
      } else {
        sound = await speak(step, rate, options, note);
      }
      if (sound.length > 0) {
        if (previous === 'speech' || previous === 'audio')
          await recorder.padTo(recorder.length + Math.round(rate * JOIN_SECONDS));
        options.onSound?.(index, recorder.length);
        await recorder.write(sound);
        endsInMargin = spoken;
      }
    }
    previous = step.kind;
    options.onStep(index + 1, plan.steps.length);
  }
  return ignored;
}

/** One run of speech at the recording's rate, trimmed to its audible part plus the margin, at its volume. */
async function speak(
  step: Extract<SsmlStep, { kind: 'speech' }>,
  rate: number,
  options: SsmlRecordingOptions,
  note: (key: string, reason: string) => void,
): Promise<Int16Array> {
  const { style } = step;
  const speed = options.speed * style.rate;
  const engine = await options.engineFor(style, speed);
  let samples: Int16Array;
  if (engine.speakStyled) {
    const spoken = await engine.speakStyled({
      text: options.prepare(step.text, style.language),
      phonemes: step.phonemes,
      pitch: style.pitch,
    });
    samples = spoken.samples;
    if (step.phonemes && !spoken.usedPhonemes) {
      note(
        'phoneme',
        `${engine.backend} has no phoneme for a symbol in "${step.phonemes.ph}"; the written word was spoken`,
      );
    }
  } else {
    if (step.phonemes)
      note(
        'phoneme',
        `${engine.backend} voices take text, not phonemes: the written word was spoken (with the lexicon's respelling when it has one)`,
      );
    if (style.pitch !== 1) note('prosody pitch', `${engine.backend} voices have no pitch control`);
    const parts: Int16Array[] = [];
    for (const chunk of splitIntoChunks(options.prepare(step.text, style.language)))
      parts.push(await engine.synthesize(chunk));
    samples = concatSamples(parts);
  }
  if (!engine.nativeSpeed && speed !== 1) samples = await stretchClip(samples, engine.sampleRate, speed);
  if (engine.sampleRate !== rate) {
    const resampler = createFastResampler(engine.sampleRate, rate);
    samples = concatSamples([resampler.process(samples), resampler.flush()]);
  }
  const first = firstAudibleIndex(samples);
  if (first < 0) return new Int16Array(0);
  const last = lastAudibleIndex(samples);
  // Exactly `margin` quiet samples at each edge: the engine's own where it left them, else digital silence.
  const margin = Math.round(rate * SPEECH_MARGIN_SECONDS);
  const trimmed = new Int16Array(last + 1 - first + 2 * margin);
  const from = Math.max(0, first - margin);
  trimmed.set(samples.subarray(from, Math.min(samples.length, last + 1 + margin)), margin - (first - from));
  return withVolume(trimmed, style.volumeDb);
}

function withVolume(samples: Int16Array, volumeDb: number): Int16Array {
  if (volumeDb === 0) return samples;
  const gain = volumeDb === -Infinity ? 0 : 10 ** (volumeDb / 20);
  for (let i = 0; i < samples.length; i++)
    samples[i] = Math.max(-32768, Math.min(32767, Math.round(samples[i] * gain)));
  return samples;
}
