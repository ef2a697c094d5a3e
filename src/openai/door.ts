/** What every route of the OpenAI door shares: its validators and the OpenAI voice-name overrides. */
import type { AppDeps } from '../jobs/app-deps';
import { compileOpenAiValidators, type OpenAiValidators } from './validation';

export interface OpenAiDoor {
  validators: OpenAiValidators;
  /** OpenAI voice name (lower case) → our voice id or exact name. */
  voiceOverrides: Record<string, string>;
}

export function createOpenAiDoor(deps: AppDeps): OpenAiDoor {
  const overrides = deps.openAiVoices ?? {};
  return {
    validators: compileOpenAiValidators(),
    voiceOverrides: Object.fromEntries(Object.entries(overrides).map(([name, voice]) => [name.toLowerCase(), voice])),
  };
}
