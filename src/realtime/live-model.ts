/**
 * Which installed model a live session decodes with: OpenAI's transcription model names mean the model the
 * file jobs would choose (the settings' preferred one first); an installed model's file name or catalog id
 * picks that model, as in POST /audio/transcriptions.
 */
import { findNamedSttModel, installedSttModels, requireSttModel } from '../jobs/admission';
import type { AppDeps } from '../jobs/app-deps';
import { chooseWhisperModel } from '../models/installed-models';
import { ConfigProblem } from './session-config';

/**
 * OpenAI's transcription model names, past and current (`gpt-live-transcribe` and `gpt-realtime-whisper` are
 * what its current Realtime guide names); each means the installed model the file jobs would choose. The beta
 * SDK sends one as `model` on the upgrade where the GA one sends `intent`.
 */
const OPENAI_STT_MODELS =
  /^(whisper-1|gpt-4o(-mini)?-transcribe[\w-]*|gpt-transcribe[\w-]*|gpt-live-transcribe[\w-]*|gpt-realtime-whisper[\w-]*)$/;

export const isTranscriptionModelName = (model: string): boolean => OPENAI_STT_MODELS.test(model);

export function liveModelResolver(
  deps: Pick<AppDeps, 'dataDir' | 'preferredSttModel'>,
): (model: string) => Promise<string> {
  return async (model) => {
    const installed = await installedSttModels(deps.dataDir);
    requireSttModel(installed);
    if (!isTranscriptionModelName(model)) {
      const named = findNamedSttModel(installed.models, model);
      if (!named)
        throw new ConfigProblem(
          'transcription.model',
          `The model ${JSON.stringify(model.slice(0, 100))} is not installed; use gpt-4o-transcribe, whisper-1 or a model from GET /v1/models.`,
        );
      return named.path;
    }
    return (chooseWhisperModel(installed.models, 'auto', deps.preferredSttModel?.()) ?? installed.models[0]).path;
  };
}
