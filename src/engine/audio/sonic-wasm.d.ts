/** The part of the untyped `@echogarden/sonic-wasm` (Sonic compiled with Emscripten) that Speech Studio uses. */
declare module '@echogarden/sonic-wasm' {
  export interface SonicModule {
    HEAP16: Int16Array;
    _malloc(bytes: number): number;
    _free(pointer: number): void;
    _sonicCreateStream(sampleRate: number, channels: number): number;
    _sonicDestroyStream(stream: number): void;
    _sonicSetSpeed(stream: number, speed: number): void;
    _sonicSetQuality(stream: number, quality: number): void;
    _sonicWriteShortToStream(stream: number, samples: number, frames: number): number;
    _sonicReadShortFromStream(stream: number, samples: number, maxFrames: number): number;
    _sonicFlushStream(stream: number): number;
    _sonicSamplesAvailable(stream: number): number;
  }
  const Sonic: () => Promise<SonicModule>;
  export default Sonic;
}
