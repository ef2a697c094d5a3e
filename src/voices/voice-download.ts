/** The catalog entry that installs a voice, and its download size: what the voice picker shows and installs. */
import { builtinCatalog, entryBytes, type Catalog, type CatalogEntry } from '../models/catalog';
import type { VoiceEntry } from './voice-entry';

export interface VoiceDownload {
  entry: CatalogEntry;
  /** Bytes of every file (approximate where the catalog records no exact size); null when unknown. */
  bytes: number | null;
}

/** Undefined for voices no catalog entry installs (builtin voices, SVOX Pico, voices the user added). */
export function voiceDownload(
  voice: Pick<VoiceEntry, 'engine' | 'engineVoiceId'>,
  catalog: Catalog = builtinCatalog(),
): VoiceDownload | undefined {
  if (voice.engine !== 'sherpa-onnx') return undefined;
  const id = voice.engineVoiceId.split('#')[0];
  const entry = catalog.models.find((candidate) => candidate.id === id && candidate.kind === 'tts-voice');
  return entry && { entry, bytes: entryBytes(entry) };
}
