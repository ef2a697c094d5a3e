/** Which recognizer a model file is for: the engine's name for src/models/stt-model-kind.ts (the server lists models by it too). */
export { sttModelKind, type SttEngineKind } from '../../models/stt-model-kind';
