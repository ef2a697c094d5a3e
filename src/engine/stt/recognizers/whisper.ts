/** The whisper.cpp recognizer: one token per piece with token timestamps, language detection, the OpenAI door's hints. */
import path from 'node:path';
import { STT_BACKEND } from '../../../engine-api/protocol';
import { decodingLanguage } from '../decoding-language';
import { readWhisperModelHeader } from '../whisper-model-header';
import { loadWhisperModel, transcribePcm16 } from '../whisper-session';
import type { Recognition, RecognizeRequest, SttRecognizer } from './recognizer';

/** Loads (or keeps) the whisper model and checks it can decode `requested` (a whisper code or `auto`). */
export async function openWhisperRecognizer(modelPath: string, requested: string): Promise<SttRecognizer> {
  const { multilingual } = await readWhisperModelHeader(modelPath);
  const language = decodingLanguage(requested, { multilingual, modelName: path.basename(modelPath) });
  const whisper = await loadWhisperModel(modelPath);
  return {
    backend: STT_BACKEND,
    engine: 'whisper.cpp',
    language,
    async recognize(request: RecognizeRequest): Promise<Recognition> {
      const output = await transcribePcm16(whisper, request.samples, {
        ...request.hints,
        language,
        multilingual,
        threads: request.threads,
        onProgress: request.onProgress,
        ...(request.onPieces ? { onSegments: request.onPieces } : {}),
      });
      return { language: output.language, pieces: output.segments, text: output.text ?? '', timing: 'tokens' };
    },
  };
}
