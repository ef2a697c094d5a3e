/** The part of the untyped `@echogarden/espeak-ng-emscripten` package that Speech Studio uses. */
declare module '@echogarden/espeak-ng-emscripten' {
  export interface EspeakRawVoice {
    name: string;
    identifier: string;
    /** `priority`: lower means espeak prefers this voice more for that language. */
    languages: { priority: number; name: string }[];
  }

  export interface EspeakEvent {
    type:
      'sentence' | 'word' | 'phoneme' | 'end' | 'samplerate' | 'mark' | 'play' | 'msg_terminated' | 'list_terminated';
    /** 1-based character position in the text given to synthesize (word and sentence events). */
    text_position: number;
    /** Characters of the word (word events). */
    word_length: number;
    /** Milliseconds from the start of this synthesize call's audio. */
    audio_position: number;
  }

  export interface EspeakNGWorker {
    /** Returns 0 on success, an espeak error code otherwise. */
    set_voice(name: string): number;
    set_rate(wordsPerMinute: number): void;
    get_samplerate(): number;
    list_voices(): EspeakRawVoice[];
    /** Synchronous. The callback must return nothing: a truthy return value aborts the synthesis. */
    synthesize(text: string, callback: (samples: Int16Array, events: EspeakEvent[]) => void): void;
  }

  export interface EspeakModule {
    eSpeakNGWorker: new () => EspeakNGWorker;
  }

  const Init: () => Promise<EspeakModule>;
  export default Init;
}
