import { listWhisperModels, diarizationModelsInstalled } from '../models/installed-models';
import type { VoiceLibrary } from '../voices/library';
import type { DeviceCapabilities } from '../link/capabilities';
import packageJson from '../../package.json';

/** What this device announces: its ready voices, installed whisper models, diarization, and queue room. */
export async function gatherCapabilities(dataDir: string, voices: VoiceLibrary, queueCapacity: number): Promise<DeviceCapabilities> {
  const page = voices.list({ scope: 'installed', sortBy: 'name', sortDirection: 'asc', page: 1, limit: 10_000 });
  const models = await listWhisperModels(dataDir);
  return {
    version: packageJson.version,
    tts: { voices: page.items.filter((voice) => voice.availability === 'ready') },
    stt: { models: models.map((m) => ({ name: m.name, englishOnly: m.englishOnly })), diarization: await diarizationModelsInstalled(dataDir) },
    queueCapacity,
  };
}
