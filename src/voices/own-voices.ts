/**
 * Voices of your own: cloned from a recording (ZipVoice) or designed as a blend of Kokoro speakers, each a
 * folder `<data-dir>/models/tts/<folder>/` with a voice.json that `uses` the installed catalog model (see
 * voice-manifest.ts), so the voice library lists them like any other voice. Here: their names, folders,
 * listing and removal, and writing a folder so that it appears whole or not at all.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../contract/errors';
import { builtinCatalog } from '../models/catalog';
import type { VoiceLibrary, VoiceEntry } from './library';
import { MANIFEST_FILE } from './voice-manifest';
import { noteFolderChange } from '../util/folder-changes';
import { VoiceFiles } from './voice-files';

export type OwnVoiceErrorCode =
  | 'INVALID_NAME'
  | 'NAME_TAKEN'
  | 'NO_CONSENT'
  | 'ZIPVOICE_NOT_INSTALLED'
  | 'NO_RECOGNIZER'
  | 'INVALID_MIX'
  | 'NOT_FOUND';

/**
 * A refusal in words for the user, as a registry error with a code a door can act on (the editor offers to
 * install ZipVoice); codes and statuses in src/contract/errors.ts.
 */
export class OwnVoiceError extends ApiError {
  declare readonly code: OwnVoiceErrorCode;

  constructor(code: OwnVoiceErrorCode, message: string) {
    super(code, message);
    this.name = 'OwnVoiceError';
  }
}

export interface OwnVoice {
  id: string;
  name: string;
  languageCode: string;
  creationMode: 'cloned' | 'designed';
  availability: string;
  /** The voice's folder under models/tts/. */
  folder: string;
}

const MAX_NAME = 60;

/**
 * The folder name for a voice name: lower-case letters, digits and dashes (accents dropped, so "José" typed
 * either way is one folder). A name with no Latin letter or digit ("Мария", "花子") becomes `voice-` and a
 * hash of its letters, so two such voices do not meet in one folder.
 */
export function ownVoiceFolder(name: string): string {
  const latin = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_NAME);
  if (latin) return latin;
  const letters = name.normalize('NFC').trim().toLowerCase();
  return `voice-${createHash('sha256').update(letters).digest('hex').slice(0, 10)}`;
}

/** A voice the user made (cloned from a recording, or designed): spoken only when chosen, never as a default. */
export const isOwn = (entry: Pick<VoiceEntry, 'engineVoiceId' | 'voice'>): boolean =>
  entry.engineVoiceId.startsWith('custom/') &&
  (entry.voice.creationMode === 'cloned' || entry.voice.creationMode === 'designed');

const folderOf = (entry: VoiceEntry): string => entry.engineVoiceId.slice('custom/'.length).split('#')[0];

/** The cloned and designed voices in the library, by name. */
export function listOwnVoices(library: Pick<VoiceLibrary, 'entries'>): OwnVoice[] {
  return library
    .entries()
    .filter(isOwn)
    .map((entry) => ({
      id: entry.voice.id,
      name: entry.voice.name,
      languageCode: entry.voice.languageCode,
      creationMode: entry.voice.creationMode as OwnVoice['creationMode'],
      availability: entry.voice.availability ?? 'ready',
      folder: folderOf(entry),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Refuses a name that is empty, too long, already a voice's name, or whose folder is taken. */
export function checkNewVoiceName(library: Pick<VoiceLibrary, 'entries'>, dataDir: string, name: string): string {
  const trimmed = name.trim();
  // eslint-disable-next-line no-control-regex -- refuses the control characters by name
  if (!trimmed || trimmed.length > MAX_NAME || /[\u0000-\u001f]/.test(trimmed)) {
    throw new OwnVoiceError(
      'INVALID_NAME',
      `A voice name needs 1–${MAX_NAME} characters, got ${JSON.stringify(name)}.`,
    );
  }
  const folder = ownVoiceFolder(trimmed);
  const lower = trimmed.toLowerCase();
  const reserved = folder === 'svox-pico' || builtinCatalog().models.some((entry) => entry.id === folder);
  if (
    reserved ||
    existsSync(new VoiceFiles(dataDir).ttsDir(folder)) ||
    library.entries().some((entry) => entry.voice.name.toLowerCase() === lower)
  ) {
    throw new OwnVoiceError(
      'NAME_TAKEN',
      `A voice named ${JSON.stringify(trimmed)} already exists: remove it first, or choose another name.`,
    );
  }
  return trimmed;
}

/** A folder being written beside the voices, renamed into place by `publish` once complete. */
export interface StagedVoice {
  dir: string;
  publish(folder: string, manifest: Record<string, unknown>): Promise<string>;
  discard(): Promise<void>;
}

export async function stageVoiceFolder(dataDir: string): Promise<StagedVoice> {
  const files = new VoiceFiles(dataDir);
  // A dot folder with no voice.json yet: the library never lists it.
  const dir = path.join(files.modelsDir, 'tts', `.staging-${randomUUID()}`);
  await mkdir(dir, { recursive: true });
  return {
    dir,
    async publish(folder, manifest) {
      const target = files.ttsDir(folder);
      if (existsSync(target))
        throw new OwnVoiceError('NAME_TAKEN', `The folder ${folder} was made meanwhile: choose another name.`);
      await writeFile(path.join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
      await rename(dir, target);
      noteFolderChange(files.modelsDir);
      return target;
    },
    discard: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Removes a cloned or designed voice by name or id; undefined when there is none. */
export async function removeOwnVoice(
  library: Pick<VoiceLibrary, 'entries'>,
  dataDir: string,
  nameOrId: string,
): Promise<OwnVoice | undefined> {
  const wanted = nameOrId.trim().toLowerCase();
  const voice = listOwnVoices(library).find((own) => own.name.toLowerCase() === wanted || own.id === wanted);
  if (!voice) return undefined;
  const files = new VoiceFiles(dataDir);
  await rm(files.ttsDir(voice.folder), { recursive: true, force: true });
  noteFolderChange(files.modelsDir);
  return voice;
}
