/** The part of the untyped `@echogarden/svoxpico-wasm` (SVOX Pico compiled with Emscripten) that Speech Studio uses. */
declare module '@echogarden/svoxpico-wasm' {
  export interface PicoModule {
    HEAPU8: Uint8Array;
    FS: { writeFile(path: string, data: Uint8Array): void; unlink(path: string): void };
    getValue(pointer: number, type: 'i16' | 'i32' | '*'): number;
    _malloc(bytes: number): number;
    _free(pointer: number): void;
    _pico_initialize(memory: number, size: number, outSystem: number): number;
    _pico_terminate(systemPointer: number): number;
    _pico_getSystemStatusMessage(system: number, code: number, outMessage: number): number;
    _pico_loadResource(system: number, fileName: number, outResource: number): number;
    _pico_unloadResource(system: number, resourcePointer: number): number;
    _pico_getResourceName(system: number, resource: number, outName: number): number;
    _pico_createVoiceDefinition(system: number, voiceName: number): number;
    _pico_addResourceToVoiceDefinition(system: number, voiceName: number, resourceName: number): number;
    _pico_releaseVoiceDefinition(system: number, voiceName: number): number;
    _pico_newEngine(system: number, voiceName: number, outEngine: number): number;
    _pico_disposeEngine(system: number, enginePointer: number): number;
    _pico_putTextUtf8(engine: number, text: number, textSize: number, outBytesPut: number): number;
    _pico_getData(engine: number, buffer: number, bufferSize: number, outBytes: number, outDataType: number): number;
  }
  const SvoxPico: () => Promise<PicoModule>;
  export default SvoxPico;
}
