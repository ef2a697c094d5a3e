/**
 * The engines an SSML job speaks with: one per voice, language and speed its markup asks for, opened on first
 * use and kept for the job; and the audio files its `<audio>` elements insert, decoded at the recording's rate.
 */
import type { SpeechStyle } from '../../text/ssml/ssml-plan';
import { createFastResampler } from '../../audio/simd-resample-kernel';
import { concatSamples } from '../audio/samples';
import { decodeToPcm16, SPEECH_SAMPLE_RATE } from '../media/decode-pcm16';
import type { MediaToolchain } from '../media/media-toolchain';
import { UserFacingError, type SsmlTaskMarkup } from '../../engine-api/protocol';
import type { TtsVoiceRef } from '../../voices/voice-ref';
import { openSpeechEngine } from './speech-engine';
import { asksForOtherLanguage, type EngineSettings, type SpeechEngine } from './synthesizers/synthesizer';

/** The longest `<audio>` file inserted, so a short file cannot expand into hours of samples. */
const MAX_AUDIO_SECONDS = 600;

export interface SsmlEngines {
  engineFor(style: SpeechStyle, speed: number): Promise<SpeechEngine>;
  audio(src: string, rate: number): Promise<Int16Array | string>;
  /** What the engines could not follow (a language a voice cannot switch to), for `ignoredOptions`. */
  readonly ignored: Record<string, string>;
  dispose(): void;
}

/** `task` is a TTS job's task, or a Read Aloud speak task's voice and markup. */
export function ssmlEngines(
  task: { voice: TtsVoiceRef; ssml?: SsmlTaskMarkup },
  settings: EngineSettings,
  ffmpeg: MediaToolchain,
): SsmlEngines {
  const opened = new Map<string, Promise<SpeechEngine>>();
  const engines: SpeechEngine[] = [];
  const ignored: Record<string, string> = {};
  return {
    ignored,
    engineFor(style, speed) {
      const voice = (style.voice && task.ssml?.voices[style.voice]) || task.voice;
      const language = style.language ?? settings.language;
      const key = JSON.stringify([voice.engine, voice.engineVoiceId, voice.model ?? null, language, speed]);
      let engine = opened.get(key);
      if (!engine) {
        engine = openSpeechEngine(voice, { ...settings, speed, language }).then(({ engine: made, notes }) => {
          engines.push(made);
          if (notes.language === null && asksForOtherLanguage(language, voice.languageCode)) {
            ignored['ssml lang'] ??=
              `the voice ${voice.name ?? voice.engineVoiceId} speaks ${voice.languageCode} only; ${made.backend} cannot switch it to ${language}`;
          }
          return made;
        });
        opened.set(key, engine);
      }
      return engine;
    },
    async audio(src, rate) {
      const file = task.ssml?.audio[src];
      if (!file) return `the audio file ${src} was not admitted with the job`;
      try {
        const samples = await decodeToPcm16(file, ffmpeg, {
          maxSeconds: MAX_AUDIO_SECONDS,
          tooLong: () => new UserFacingError(`the audio file ${src} is longer than ${MAX_AUDIO_SECONDS} seconds`),
        });
        if (rate === SPEECH_SAMPLE_RATE) return samples;
        const resampler = createFastResampler(SPEECH_SAMPLE_RATE, rate);
        return concatSamples([resampler.process(samples), resampler.flush()]);
      } catch (error) {
        return `the audio file ${src} could not be read (${error instanceof Error ? error.message : String(error)})`;
      }
    },
    dispose() {
      for (const engine of engines) engine.dispose?.();
    },
  };
}
