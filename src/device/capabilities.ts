import { availableParallelism } from 'node:os';
import { installedSttModels } from '../jobs/admission';
import type { VoiceLibrary } from '../voices/library';
import { isReadyVoice } from '../voices/voice-entry';
import type { DeviceCapabilities } from '../link/capabilities';
import packageJson from '../../package.json';

/** What this device announces: its ready voices, installed STT models (with their engine and languages), diarization, and queue room. */
export async function gatherCapabilities(
  dataDir: string,
  voices: VoiceLibrary,
  queueCapacity: number,
): Promise<DeviceCapabilities> {
  const page = voices.list({ scope: 'installed', sortBy: 'name', sortDirection: 'asc', page: 1, limit: 10_000 });
  const { models, diarization } = await installedSttModels(dataDir);
  return {
    version: packageJson.version,
    tts: { voices: page.items.filter(isReadyVoice) },
    stt: {
      models: models.map((m) => ({
        name: m.name,
        englishOnly: m.englishOnly,
        ...(m.engine ? { engine: m.engine } : {}),
        ...(m.languages ? { languages: m.languages } : {}),
      })),
      diarization,
    },
    queueCapacity,
    cores: availableParallelism(),
  };
}
