/**
 * Neural voices run by sherpa-onnx: the catalog's `tts-voice` entries (Piper, Kokoro) are always listed,
 * `not_installed` until their files are in `<data-dir>/models/tts/<catalog id>/` (the model catalog puts
 * them there), `installing` while a download is staged. A multi-speaker model (Kokoro) gives one voice per
 * speaker.
 */
import { existsSync } from 'node:fs';
import type { Gender, Voice } from '../contract/types';
import type { SherpaModelKind } from './voice-ref';
import { builtinCatalog, type CatalogEntry } from '../models/catalog';
import { indexed, type IndexedEntry } from './voice-entry';
import type { VoiceFiles } from './voice-files';
import { voiceIdFor } from './voice-id';

interface Speaker {
  id: number;
  key: string;
  name: string;
  gender: Gender;
  languageCode: string;
}

const kokoroSpeaker = (id: number, key: string): Speaker => ({
  id,
  key,
  name: `Kokoro ${key === 'af' ? 'Default' : key.slice(3, 4).toUpperCase() + key.slice(4)} (English, ${key[0] === 'a' ? 'America' : 'Great Britain'})`,
  gender: key[1] === 'f' ? 'female' : 'male',
  languageCode: key[0] === 'a' ? 'en-US' : 'en-GB',
});

/** What the catalog does not say: the speakers of multi-speaker models. */
const DETAILS: Record<string, { speakers?: Speaker[] }> = {
  // sherpa-onnx's speaker order for kokoro-en-v0_19.
  'kokoro-en-v0.19': {
    speakers: ['af', 'af_bella', 'af_nicole', 'af_sarah', 'af_sky', 'am_adam', 'am_michael', 'bf_emma', 'bf_isabella', 'bm_george', 'bm_lewis']
      .map((key, id) => kokoroSpeaker(id, key)),
  },
};

const KINDS: Record<NonNullable<CatalogEntry['engine']>, SherpaModelKind> = {
  'sherpa-onnx-vits': 'vits',
  'sherpa-onnx-kokoro': 'kokoro',
};

/** Catalog file roles → sherpa config names. */
const ROLE_NAMES: Record<string, string> = { model: 'model', tokens: 'tokens', voices: 'voices' };

export function catalogVoiceEntries(files: VoiceFiles, catalog = builtinCatalog()): IndexedEntry[] {
  return catalog.models
    .filter((entry) => entry.kind === 'tts-voice' && entry.engine)
    .flatMap((entry) => entriesFor(entry, files));
}

function entriesFor(entry: CatalogEntry, files: VoiceFiles): IndexedEntry[] {
  const kind = KINDS[entry.engine!];
  const paths = entry.files.map((file) => ({ role: file.role, path: files.target(file.target) }));
  const ready = paths.every((file) => existsSync(file.path));
  const availability: Voice['availability'] = ready ? 'ready' : files.installing(entry.id) ? 'installing' : 'not_installed';
  const modelFiles = Object.fromEntries(
    paths.filter((file) => file.role && ROLE_NAMES[file.role]).map((file) => [ROLE_NAMES[file.role!], file.path]),
  );
  const createdAt = ready ? Math.max(...paths.map((file) => files.installedAt(file.path))) : 0;
  const details = DETAILS[entry.id] ?? {};
  const speakers: (Speaker | undefined)[] = details.speakers ?? [undefined];
  return speakers.map((speaker) => {
    const languageCode = speaker?.languageCode ?? entry.languages[0];
    const name = speaker?.name ?? entry.name;
    const engineVoiceId = speaker ? `${entry.id}#${speaker.key}` : entry.id;
    const gender = speaker?.gender ?? entry.gender;
    const voice: Voice = {
      id: voiceIdFor('sherpa-onnx', engineVoiceId),
      name,
      languageCode,
      ...(gender ? { gender } : {}),
      ageGroup: 'adult',
      creationMode: 'downloaded',
      availability,
      access: { scope: 'shared', canUse: true, license: entry.license },
    };
    return indexed(
      {
        voice,
        engine: 'sherpa-onnx',
        engineVoiceId,
        createdAt,
        ref: {
          engine: 'sherpa-onnx',
          engineVoiceId,
          languageCode,
          name,
          model: { kind, files: modelFiles, speakerId: speaker?.id ?? 0, espeakDataDir: files.espeakDataDir },
        },
      },
      [kind === 'vits' ? 'piper' : kind, 'neural', ...entry.languages],
    );
  });
}
