/**
 * Voices the user installs by hand: any folder `<data-dir>/models/tts/<folder>/` with a `voice.json` that
 * describes a sherpa-onnx model (Piper/VITS, Kokoro, Kitten, Matcha, or ZipVoice with its reference
 * recording):
 *
 * ```json
 * { "name": "Narrator", "engine": "vits", "languageCode": "en-GB", "gender": "female", "license": "CC-BY-4.0",
 *   "files": { "model": "model.onnx", "tokens": "tokens.txt" },
 *   "speakers": [{ "id": 0, "name": "Narrator" }],
 *   "reference": { "audio": "reference.wav", "text": "What the reference recording says." } }
 * ```
 * File names are relative to the folder. A folder with a broken manifest is listed as `unavailable`.
 *
 * Voices made in Speech Studio (src/voices/own-voices.ts) add `"uses": "<catalog id>"`, whose installed
 * files fill in those `files` does not name (a cloned voice keeps only its reference, a Kokoro mix only
 * its voices.bin), `"creationMode": "cloned" | "designed"`, and for a clone the speaker's `consent`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Gender, Voice } from '../contract/types';
import { REQUIRED_FILES, type SherpaModelKind, type SherpaVoiceModel } from './voice-ref';
import { builtinCatalog, type CatalogEntry } from '../models/catalog';
import { catalogModelFiles } from './neural-voices';

import { indexed, type IndexedEntry } from './voice-entry';
import { VoiceFiles } from './voice-files';
import { voiceIdFor } from './voice-id';

export const MANIFEST_FILE = 'voice.json';
/** Only the names of a catalog entry's files matter when checking a manifest, not where they are. */
const PLACEHOLDER_FILES = new VoiceFiles('/');
const KINDS: SherpaModelKind[] = ['vits', 'kokoro', 'kitten', 'matcha', 'zipvoice'];
const GENDERS: Gender[] = ['female', 'male', 'neutral'];

interface Manifest {
  name: string;
  engine: SherpaModelKind;
  languageCode: string;
  gender?: Gender;
  license?: string;
  multiLingual?: boolean;
  files: Record<string, string>;
  speakers?: { id: number; name?: string; gender?: Gender; languageCode?: string }[];
  reference?: { audio: string; text: string };
  uses?: string;
  creationMode?: 'cloned' | 'designed';
  /** A multi-lingual Kokoro mix speaks this language (its `lang`) unless a job asks for another. */
  speakerLanguage?: string;
  consent?: { confirmedAt: string; statement: string };
}

/** The catalog entry a manifest's `uses` names, if it is one that loads like `engine`. */
function usedEntry(uses: unknown, engine: SherpaModelKind): CatalogEntry | undefined {
  return builtinCatalog().models.find((entry) => entry.id === uses && entry.engine === `sherpa-onnx-${engine}`);
}

/** The manifest's problem in words, or undefined when it is usable. */
export function manifestProblem(data: unknown): string | undefined {
  const m = data as Partial<Manifest> | null;
  if (!m || typeof m !== 'object') return 'voice.json is not a JSON object';
  if (typeof m.name !== 'string' || !m.name.trim()) return 'name is missing';
  if (!KINDS.includes(m.engine as SherpaModelKind)) return `engine must be one of ${KINDS.join(', ')}`;
  if (typeof m.languageCode !== 'string' || !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(m.languageCode))
    return 'languageCode must be a language tag';
  if (m.gender !== undefined && !GENDERS.includes(m.gender)) return `gender must be one of ${GENDERS.join(', ')}`;
  if (!m.files || typeof m.files !== 'object') return 'files is missing';
  for (const [key, file] of Object.entries(m.files)) {
    if (typeof file !== 'string' || path.isAbsolute(file) || file.split(/[\\/]/).includes('..'))
      return `files.${key} must be a file name inside the folder`;
  }
  if (m.uses !== undefined && !usedEntry(m.uses, m.engine as SherpaModelKind))
    return `uses must name a catalog model of the ${m.engine} family`;
  if (m.creationMode !== undefined && m.creationMode !== 'cloned' && m.creationMode !== 'designed')
    return 'creationMode must be cloned or designed';
  const provided = m.uses
    ? Object.keys(catalogModelFiles(usedEntry(m.uses, m.engine as SherpaModelKind)!, PLACEHOLDER_FILES))
    : [];
  const missing = REQUIRED_FILES[m.engine as SherpaModelKind].filter(
    (key) => !m.files![key] && !provided.includes(key),
  );
  if (missing.length > 0) return `files must name ${missing.join(', ')}`;
  if (m.engine === 'zipvoice' && (typeof m.reference?.audio !== 'string' || typeof m.reference.text !== 'string')) {
    return 'a zipvoice voice needs reference.audio and reference.text';
  }
  if (
    m.speakers !== undefined &&
    (!Array.isArray(m.speakers) || m.speakers.some((s) => !Number.isInteger(s?.id) || s.id < 0))
  ) {
    return 'speakers must be a list of { id, name }';
  }
  return undefined;
}

/** Every folder under models/tts/ with a voice.json, except those owned by the catalog or SVOX Pico. */
export function manifestVoiceEntries(files: VoiceFiles, reserved: ReadonlySet<string>): IndexedEntry[] {
  const root = path.join(files.modelsDir, 'tts');
  let folders: string[];
  try {
    folders = readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
  return folders
    .filter((folder) => !reserved.has(folder) && existsSync(path.join(root, folder, MANIFEST_FILE)))
    .flatMap((folder) => entriesForFolder(path.join(root, folder), folder, files));
}

function entriesForFolder(dir: string, folder: string, files: VoiceFiles): IndexedEntry[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path.join(dir, MANIFEST_FILE), 'utf8'));
  } catch {
    data = null;
  }
  const problem = manifestProblem(data);
  if (problem) return [broken(folder, problem)];
  const m = data as Manifest;
  const used = m.uses ? usedEntry(m.uses, m.engine) : undefined;
  const modelFiles = {
    ...(used ? catalogModelFiles(used, files) : {}),
    ...Object.fromEntries(Object.entries(m.files).map(([key, file]) => [key, path.join(dir, file)])),
  };
  const needed = [
    ...(used ? used.files.map((file) => files.target(file.target)) : []),
    ...REQUIRED_FILES[m.engine].map((key) => modelFiles[key]),
    ...(m.reference ? [path.join(dir, m.reference.audio)] : []),
  ];
  const ready = needed.every((file) => existsSync(file));
  const createdAt = ready ? files.installedAt(path.join(dir, MANIFEST_FILE)) : 0;
  const speakers = m.speakers?.length ? m.speakers : [{ id: 0 }];
  return speakers.map((speaker: { id: number; name?: string; gender?: Gender; languageCode?: string }) => {
    const engineVoiceId = `custom/${folder}#${speaker.id}`;
    const name = speaker.name ?? (speakers.length > 1 ? `${m.name} ${speaker.id}` : m.name);
    const languageCode = speaker.languageCode ?? m.languageCode;
    const gender = speaker.gender ?? m.gender;
    const model: SherpaVoiceModel = {
      kind: m.engine,
      files: modelFiles,
      speakerId: speaker.id,
      espeakDataDir: files.espeakDataDir,
      ...(m.multiLingual ? { multiLingual: true } : {}),
      ...(m.speakerLanguage ? { speakerLanguage: m.speakerLanguage } : {}),
      ...(m.reference ? { reference: { audioPath: path.join(dir, m.reference.audio), text: m.reference.text } } : {}),
    };
    const voice: Voice = {
      id: voiceIdFor('sherpa-onnx', engineVoiceId),
      name,
      languageCode,
      ...(gender ? { gender } : {}),
      creationMode: m.creationMode ?? (m.engine === 'zipvoice' ? 'cloned' : 'downloaded'),
      availability: ready ? 'ready' : 'unavailable',
      access: { scope: 'personal', canUse: true, license: m.license ?? 'unknown' },
    };
    return indexed(
      {
        voice,
        engine: 'sherpa-onnx',
        engineVoiceId,
        createdAt,
        ref: { engine: 'sherpa-onnx', engineVoiceId, languageCode, name, model },
      },
      [m.engine],
    );
  });
}

function broken(folder: string, problem: string): IndexedEntry {
  const engineVoiceId = `custom/${folder}#0`;
  return indexed({
    voice: {
      id: voiceIdFor('sherpa-onnx', engineVoiceId),
      name: `${folder} (${problem})`,
      languageCode: 'und',
      creationMode: 'downloaded',
      availability: 'unavailable',
      access: { scope: 'personal', canUse: false, license: 'unknown' },
    },
    engine: 'sherpa-onnx',
    engineVoiceId,
    createdAt: 0,
    ref: { engine: 'sherpa-onnx', engineVoiceId, languageCode: 'und', name: folder },
  });
}
