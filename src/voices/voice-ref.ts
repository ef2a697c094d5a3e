/**
 * How a TTS job names its voice across the process boundary: the engine, its own voice id and, for model
 * voices, the files to load. The voice library resolves these; the engine process reads them.
 */
/** The synthesizers the engine can drive. */
export type TtsEngineName = 'espeak-ng' | 'flite' | 'svox-pico' | 'sherpa-onnx';

/** The model families sherpa-onnx's OfflineTts loads. */
export type SherpaModelKind = 'vits' | 'kokoro' | 'kitten' | 'matcha' | 'zipvoice';

/** The files and settings of a sherpa-onnx voice, with absolute paths (see src/voices/neural-voices.ts). */
export interface SherpaVoiceModel {
  kind: SherpaModelKind;
  /** Model files by sherpa's config names: model, tokens, voices, lexicon, acousticModel, vocoder, encoder, decoder. */
  files: Record<string, string>;
  /** Speaker index inside a multi-speaker model (Kokoro and Kitten: the row of voices.bin). */
  speakerId: number;
  /** Where espeak-ng's phoneme data is (or will be) unpacked for the model's front end. */
  espeakDataDir: string;
  /** Kokoro multi-lingual models take a language; others have theirs built in. */
  multiLingual?: boolean;
  /** A multi-lingual model's speaker speaks this language unless the job asks for another (e.g. `es`). */
  speakerLanguage?: string;
  /** ZipVoice clones the voice of a reference recording (16-bit WAV) with its transcript. */
  reference?: { audioPath: string; text: string };
}

/** SVOX Pico's two lingware files for one language. */
export interface PicoVoiceModel {
  textAnalysis: string;
  signalGeneration: string;
}

/** The voice of a TTS job, resolved by the voice library when the job is created. */
export interface TtsVoiceRef {
  engine: TtsEngineName;
  /** The engine's own name for the voice, e.g. espeak `gmw/en-US`, flite `slt`, a catalog id for sherpa-onnx. */
  engineVoiceId: string;
  languageCode: string;
  /** Display name, for results and error messages. */
  name?: string;
  model?: SherpaVoiceModel | PicoVoiceModel;
  /**
   * Subtitle narration only: other voices by speaker name (`<v Name>` tags, `Name:` prefixes). Set by the
   * editor's command from its setting; the API body has no such field.
   */
  speakers?: Record<string, TtsVoiceRef>;
}

/** The files each model family needs, by sherpa's config names. */
export const REQUIRED_FILES: Record<SherpaModelKind, string[]> = {
  vits: ['model', 'tokens'],
  kokoro: ['model', 'voices', 'tokens'],
  kitten: ['model', 'voices', 'tokens'],
  matcha: ['acousticModel', 'vocoder', 'tokens'],
  zipvoice: ['encoder', 'decoder', 'vocoder', 'tokens'],
};
