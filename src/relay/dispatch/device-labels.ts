import type { Device } from '../data/devices';
import { isReadyVoice } from '../../voices/voice-entry';

/** A key's pool entry that takes every device carrying a label, present and future: `label:gpu`. */
export const POOL_LABEL_PREFIX = 'label:';

/**
 * Everything a device is known by: its operator's labels and those its capabilities imply, which follow it
 * as it installs or removes things: `voice:<id>` and `lang:<xx>` for each ready voice, `stt:<model>` and
 * (when the model says) `lang:<xx>` for each recognizer, `diarization`, and `cores:<n>` when reported.
 */
export function deviceLabels(device: Pick<Device, 'labels' | 'capabilities'>): Set<string> {
  const labels = new Set(device.labels);
  const caps = device.capabilities;
  if (!caps) return labels;
  const language = (code: string) => `lang:${code.split(/[-_]/)[0].toLowerCase()}`;
  for (const voice of caps.tts.voices.filter(isReadyVoice)) {
    labels.add(`voice:${voice.id.toLowerCase()}`);
    labels.add(language(voice.languageCode));
  }
  for (const model of caps.stt.models) {
    labels.add(`stt:${model.name.toLowerCase()}`);
    for (const code of model.languages ?? (model.englishOnly ? ['en'] : [])) labels.add(language(code));
  }
  if (caps.stt.diarization) labels.add('diarization');
  if (caps.cores !== undefined) labels.add(`cores:${caps.cores}`);
  return labels;
}

/** Whether a pool (device ids, `*`, `label:<name>`) takes the device. */
export function poolTakes(pool: readonly string[], device: Pick<Device, 'id' | 'labels' | 'capabilities'>): boolean {
  if (pool.includes('*') || pool.includes(device.id)) return true;
  const wanted = pool.filter((entry) => entry.startsWith(POOL_LABEL_PREFIX));
  if (wanted.length === 0) return false;
  const labels = deviceLabels(device);
  return wanted.some((entry) => labels.has(entry.slice(POOL_LABEL_PREFIX.length)));
}
