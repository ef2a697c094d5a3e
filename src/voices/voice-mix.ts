/**
 * Voice Mix for Kokoro: a weighted blend of one Kokoro model's speakers saved as a `designed` voice. Kokoro
 * speaks with a style vector per speaker read from voices.bin, and sherpa-onnx requires that file to hold
 * exactly the model's speaker count of rows, so the mix gets a voices.bin of its own with the blend in every
 * row (speaker 0 is the one spoken), and `uses` the installed model for everything else.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { builtinCatalog } from '../models/catalog';
import type { VoiceEntry, VoiceLibrary } from './library';
import { catalogSpeakerKeys } from './neural-voices';
import { checkNewVoiceName, ownVoiceFolder, OwnVoiceError, stageVoiceFolder } from './own-voices';
import type { SherpaVoiceModel } from './voice-ref';

export interface MixPart {
  /** A Kokoro speaker: its key (`af_bella`), its voice name or its voice id. */
  speaker: string;
  weight: number;
}

/** `af_bella:0.6,am_adam:0.4` as parts; throws INVALID_MIX with the reason. */
export function parseMix(text: string): MixPart[] {
  const parts = text
    .split(',')
    .map((piece) => piece.trim())
    .filter(Boolean)
    .map((piece) => {
      const at = piece.lastIndexOf(':');
      const speaker = (at < 0 ? piece : piece.slice(0, at)).trim();
      const weight = at < 0 ? 1 : Number(piece.slice(at + 1));
      if (!speaker || !Number.isFinite(weight) || weight <= 0) {
        throw new OwnVoiceError(
          'INVALID_MIX',
          `Expected speaker:weight with a weight above 0, got ${JSON.stringify(piece)}.`,
        );
      }
      return { speaker, weight };
    });
  if (parts.length === 0)
    throw new OwnVoiceError('INVALID_MIX', 'A mix needs at least one speaker:weight, e.g. af_bella:0.6,am_adam:0.4.');
  return parts;
}

/** The Kokoro speakers of catalog models, which a mix can blend. */
export function mixableSpeakers(library: Pick<VoiceLibrary, 'entries'>): VoiceEntry[] {
  return library
    .entries()
    .filter(
      (entry) =>
        (entry.ref.model as SherpaVoiceModel | undefined)?.kind === 'kokoro' && /^[^/]+#/.test(entry.engineVoiceId),
    );
}

function findSpeaker(speakers: VoiceEntry[], wanted: string): VoiceEntry {
  const lower = wanted.toLowerCase();
  const found =
    speakers.find((entry) => entry.engineVoiceId.split('#')[1]?.toLowerCase() === lower) ??
    speakers.find((entry) => entry.voice.name.toLowerCase() === lower || entry.voice.id === lower);
  if (!found)
    throw new OwnVoiceError(
      'INVALID_MIX',
      `No Kokoro speaker ${JSON.stringify(wanted)} is known: use a speaker key such as af_bella, or a Kokoro voice's name.`,
    );
  if (found.voice.availability !== 'ready') {
    throw new OwnVoiceError(
      'INVALID_MIX',
      `${found.voice.name} is not installed: install its model first (models install ${found.engineVoiceId.split('#')[0]}).`,
    );
  }
  return found;
}

/** Each row of `voices` weighted and summed: the blended style, `rowFloats` long. */
export function blendRows(
  voices: Float32Array,
  rowFloats: number,
  rows: Array<{ index: number; weight: number }>,
): Float32Array {
  const total = rows.reduce((sum, row) => sum + row.weight, 0);
  const blend = new Float32Array(rowFloats);
  for (const { index, weight } of rows) {
    const row = voices.subarray(index * rowFloats, (index + 1) * rowFloats);
    for (let i = 0; i < rowFloats; i++) blend[i] += (row[i] * weight) / total;
  }
  return blend;
}

/** Saves the blend of `parts` as a designed voice named `name`. */
export async function mixKokoroVoice(
  library: Pick<VoiceLibrary, 'entries'>,
  dataDir: string,
  parts: MixPart[],
  name: string,
): Promise<{ id: string; name: string; folder: string }> {
  const voiceName = checkNewVoiceName(library, dataDir, name);
  const speakers = mixableSpeakers(library);
  const chosen = parts.map((part) => ({ entry: findSpeaker(speakers, part.speaker), weight: part.weight }));
  const modelId = chosen[0].entry.engineVoiceId.split('#')[0];
  if (chosen.some(({ entry }) => entry.engineVoiceId.split('#')[0] !== modelId)) {
    throw new OwnVoiceError(
      'INVALID_MIX',
      'A mix blends speakers of one Kokoro model: these come from different models.',
    );
  }
  const catalogEntry = builtinCatalog().models.find((entry) => entry.id === modelId)!;
  const model = chosen[0].entry.ref.model as SherpaVoiceModel;
  const speakerCount = catalogSpeakerKeys(modelId).length;
  const bytes = await readFile(model.files.voices);
  const floats = new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 4));
  if (speakerCount === 0 || floats.length % speakerCount !== 0) {
    throw new OwnVoiceError(
      'INVALID_MIX',
      `${path.basename(model.files.voices)} of ${modelId} does not hold ${speakerCount} speakers' styles: reinstall the model.`,
    );
  }
  const rowFloats = floats.length / speakerCount;
  const blend = blendRows(
    floats,
    rowFloats,
    chosen.map(({ entry, weight }) => ({ index: (entry.ref.model as SherpaVoiceModel).speakerId, weight })),
  );
  const heaviest = [...chosen].sort((a, b) => b.weight - a.weight)[0].entry;
  const genders = new Set(chosen.map(({ entry }) => entry.voice.gender));
  const total = chosen.reduce((sum, part) => sum + part.weight, 0);

  const staged = await stageVoiceFolder(dataDir);
  try {
    const rows = new Float32Array(floats.length);
    for (let row = 0; row < speakerCount; row++) rows.set(blend, row * rowFloats);
    await writeFile(path.join(staged.dir, 'voices.bin'), new Uint8Array(rows.buffer));
    const folder = ownVoiceFolder(voiceName);
    await staged.publish(folder, {
      name: voiceName,
      engine: 'kokoro',
      languageCode: heaviest.voice.languageCode,
      ...(genders.size === 1 && heaviest.voice.gender ? { gender: heaviest.voice.gender } : {}),
      license: catalogEntry.license,
      uses: modelId,
      files: { voices: 'voices.bin' },
      ...(model.multiLingual ? { multiLingual: true } : {}),
      ...((heaviest.ref.model as SherpaVoiceModel).speakerLanguage
        ? { speakerLanguage: (heaviest.ref.model as SherpaVoiceModel).speakerLanguage }
        : {}),
      creationMode: 'designed',
      mix: chosen.map(({ entry, weight }) => ({
        speaker: entry.engineVoiceId.split('#')[1],
        weight: Math.round((weight / total) * 1000) / 1000,
      })),
    });
    const id = library.entries().find((entry) => entry.engineVoiceId === `custom/${folder}#0`)?.voice.id ?? '';
    return { id, name: voiceName, folder };
  } finally {
    await staged.discard();
  }
}
