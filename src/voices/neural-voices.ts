/**
 * Neural voices run by sherpa-onnx: the catalog's `tts-voice` entries (Piper, Kokoro, Kitten) are always
 * listed, `not_installed` until their files are in `<data-dir>/models/tts/<catalog id>/` (the model catalog
 * puts them there), `installing` while a download is staged. A multi-speaker model (Kokoro, Kitten) gives
 * one voice per speaker.
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
  /** What a multi-lingual model is told to speak for this speaker (its `lang`). */
  modelLanguage?: string;
}

/** Kokoro names its speakers `<language letter><f|m>_<name>`; the letter says the language. */
const KOKORO_LANGUAGES: Record<string, { code: string; label: string; lang: string }> = {
  a: { code: 'en-US', label: 'English, America', lang: 'en-us' },
  b: { code: 'en-GB', label: 'English, Great Britain', lang: 'en-gb' },
  e: { code: 'es-ES', label: 'Spanish', lang: 'es' },
  f: { code: 'fr-FR', label: 'French', lang: 'fr-fr' },
  h: { code: 'hi-IN', label: 'Hindi', lang: 'hi' },
  i: { code: 'it-IT', label: 'Italian', lang: 'it' },
  j: { code: 'ja-JP', label: 'Japanese', lang: 'ja' },
  p: { code: 'pt-BR', label: 'Portuguese, Brazil', lang: 'pt-br' },
  z: { code: 'zh-CN', label: 'Chinese, Mandarin', lang: 'zh' },
};

const kokoroSpeaker = (id: number, key: string, multiLingual = false): Speaker => {
  const language = KOKORO_LANGUAGES[key[0]];
  const given = key.slice(3);
  return {
    id,
    key,
    name: `Kokoro ${key === 'af' ? 'Default' : given.slice(0, 1).toUpperCase() + given.slice(1)} (${language.label})${multiLingual ? ' – v1.0' : ''}`,
    gender: key[1] === 'f' ? 'female' : 'male',
    languageCode: language.code,
    ...(multiLingual ? { modelLanguage: language.lang } : {}),
  };
};

/**
 * Kokoro v1.0's 54 speakers in the order sherpa-onnx's export wrote them into voices.bin (sorted by key;
 * 54 styles of 510 × 256 floats is the file's size, 28 200 960 bytes).
 */
const KOKORO_V1_SPEAKERS = [
  'af_alloy',
  'af_aoede',
  'af_bella',
  'af_heart',
  'af_jessica',
  'af_kore',
  'af_nicole',
  'af_nova',
  'af_river',
  'af_sarah',
  'af_sky',
  'am_adam',
  'am_echo',
  'am_eric',
  'am_fenrir',
  'am_liam',
  'am_michael',
  'am_onyx',
  'am_puck',
  'am_santa',
  'bf_alice',
  'bf_emma',
  'bf_isabella',
  'bf_lily',
  'bm_daniel',
  'bm_fable',
  'bm_george',
  'bm_lewis',
  'ef_dora',
  'em_alex',
  'em_santa',
  'ff_siwis',
  'hf_alpha',
  'hf_beta',
  'hm_omega',
  'hm_psi',
  'if_sara',
  'im_nicola',
  'jf_alpha',
  'jf_gongitsune',
  'jf_nezumi',
  'jf_tebukuro',
  'jm_kumo',
  'pf_dora',
  'pm_alex',
  'pm_santa',
  'zf_xiaobei',
  'zf_xiaoni',
  'zf_xiaoxiao',
  'zf_xiaoyi',
  'zm_yunjian',
  'zm_yunxi',
  'zm_yunxia',
  'zm_yunyang',
];

/**
 * Kitten TTS nano's 8 speakers in voices.bin order (sherpa-onnx's scripts/kitten-tts/nano_v0_1
 * generate_voices_bin.py writes them in this order): `expr-voice-<n>-<m|f>`.
 */
const KITTEN_NANO_SPEAKERS = [
  'expr-voice-2-m',
  'expr-voice-2-f',
  'expr-voice-3-m',
  'expr-voice-3-f',
  'expr-voice-4-m',
  'expr-voice-4-f',
  'expr-voice-5-m',
  'expr-voice-5-f',
];

const kittenSpeaker = (id: number, key: string): Speaker => {
  const [, number, sex] = /^expr-voice-(\d+)-([mf])$/.exec(key)!;
  const gender: Gender = sex === 'f' ? 'female' : 'male';
  return {
    id,
    key,
    name: `Kitten Nano ${number} ${gender === 'female' ? 'Female' : 'Male'} (English, America)`,
    gender,
    languageCode: 'en-US',
  };
};

/** What the catalog does not say: the speakers of multi-speaker models, and which models take a language. */
const DETAILS: Record<string, { speakers?: Speaker[]; multiLingual?: boolean }> = {
  // sherpa-onnx's speaker order for kokoro-en-v0_19.
  'kokoro-en-v0.19': {
    speakers: [
      'af',
      'af_bella',
      'af_nicole',
      'af_sarah',
      'af_sky',
      'am_adam',
      'am_michael',
      'bf_emma',
      'bf_isabella',
      'bm_george',
      'bm_lewis',
    ].map((key, id) => kokoroSpeaker(id, key)),
  },
  'kokoro-multi-lang-v1.0': {
    speakers: KOKORO_V1_SPEAKERS.map((key, id) => kokoroSpeaker(id, key, true)),
    multiLingual: true,
  },
  'kitten-nano-en-v0.1-fp16': { speakers: KITTEN_NANO_SPEAKERS.map((key, id) => kittenSpeaker(id, key)) },
};

const KINDS: Record<NonNullable<CatalogEntry['engine']>, SherpaModelKind> = {
  'sherpa-onnx-vits': 'vits',
  'sherpa-onnx-kokoro': 'kokoro',
  'sherpa-onnx-kitten': 'kitten',
  'sherpa-onnx-zipvoice': 'zipvoice',
};

/** Catalog file roles → sherpa config names. */
const ROLE_NAMES: Record<string, string> = {
  model: 'model',
  tokens: 'tokens',
  voices: 'voices',
  lexicon: 'lexicon',
  encoder: 'encoder',
  decoder: 'decoder',
  vocoder: 'vocoder',
};

/**
 * A catalog entry's files by sherpa's config names, at their installed paths (several lexicons as one
 * comma-separated list, as sherpa-onnx takes them).
 */
export function catalogModelFiles(entry: CatalogEntry, files: VoiceFiles): Record<string, string> {
  const modelFiles: Record<string, string> = {};
  for (const file of entry.files.filter((f) => f.role && ROLE_NAMES[f.role])) {
    const name = ROLE_NAMES[file.role!];
    const where = files.target(file.target);
    modelFiles[name] = modelFiles[name] ? `${modelFiles[name]},${where}` : where;
  }
  return modelFiles;
}

/** Whether every file of a catalog entry is installed. */
export const catalogEntryInstalled = (entry: CatalogEntry, files: VoiceFiles): boolean =>
  entry.files.every((file) => existsSync(files.target(file.target)));

/** The speakers of a catalog model in its voices.bin order (Kokoro, Kitten); empty for single-voice models. */
export const catalogSpeakerKeys = (entryId: string): string[] =>
  DETAILS[entryId]?.speakers?.map((speaker) => speaker.key) ?? [];

export function catalogVoiceEntries(files: VoiceFiles, catalog = builtinCatalog()): IndexedEntry[] {
  return catalog.models
    .filter((entry) => entry.kind === 'tts-voice' && entry.engine)
    .flatMap((entry) => entriesFor(entry, files));
}

function entriesFor(entry: CatalogEntry, files: VoiceFiles): IndexedEntry[] {
  const kind = KINDS[entry.engine!];
  const paths = entry.files.map((file) => ({ role: file.role, path: files.target(file.target) }));
  const ready = paths.every((file) => existsSync(file.path));
  const availability: Voice['availability'] = ready
    ? 'ready'
    : files.installing(entry.id)
      ? 'installing'
      : 'not_installed';
  const modelFiles = catalogModelFiles(entry, files);
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
          model: {
            kind,
            files: modelFiles,
            speakerId: speaker?.id ?? 0,
            espeakDataDir: files.espeakDataDir,
            ...(details.multiLingual ? { multiLingual: true } : {}),
            ...(speaker?.modelLanguage ? { speakerLanguage: speaker.modelLanguage } : {}),
          },
        },
      },
      // A speaker of a multi-speaker model is found by its own language, not by every language of its model.
      [kind === 'vits' ? 'piper' : kind, 'neural', ...(speaker ? [speaker.languageCode] : entry.languages)],
    );
  });
}
