/**
 * Cloning a voice from a recording: the engine makes the reference (speech trimmed, loudness normalized,
 * words recognized unless given) into a staged folder; once the text is confirmed and the speaker's consent
 * recorded, the folder becomes a `cloned` voice that uses the installed ZipVoice model. Two steps, so the
 * editor can show the recognized text for correction before anything is saved.
 */
import { requireRegularFile } from '../local-files/user-files';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { EngineHost } from './engine-host';
import { builtinCatalog } from '../models/catalog';
import { listSttModels } from '../models/installed-models';
import type { VoiceLibrary } from '../voices/library';
import { catalogEntryInstalled } from '../voices/neural-voices';
import {
  checkNewVoiceName,
  ownVoiceFolder,
  OwnVoiceError,
  stageVoiceFolder,
  type StagedVoice,
} from '../voices/own-voices';
import { VoiceFiles } from '../voices/voice-files';

/** The catalog model every cloned voice speaks through. */
export const ZIPVOICE_MODEL_ID = 'zipvoice-distill-int8-zh-en-emilia';

/** What the user confirms, once for each cloned voice; voice.json keeps it with the time. */
export const CONSENT_STATEMENT =
  'The person speaking in this recording has consented to having their voice cloned and used with Speech Studio.';

const REFERENCE_FILE = 'reference.wav';

export interface PreparedReference {
  staged: StagedVoice;
  /** The text as given, else as recognized: empty when the recognizer heard no words. */
  text: string;
  speechSeconds: number;
  language: string | null;
}

/** Refuses when the ZipVoice model is not installed, naming the command that installs it. */
export function requireZipVoice(dataDir: string): void {
  const entry = builtinCatalog().models.find((candidate) => candidate.id === ZIPVOICE_MODEL_ID)!;
  if (!catalogEntryInstalled(entry, new VoiceFiles(dataDir))) {
    throw new OwnVoiceError(
      'ZIPVOICE_NOT_INSTALLED',
      `Cloning a voice needs the ZipVoice model, which is not installed: install it first (models install ${ZIPVOICE_MODEL_ID}).`,
    );
  }
}

/**
 * Makes the reference of `clip` (any format the engine decodes, 3–30 s of speech, see reference-clip.ts) in a
 * staged folder; the text is recognized with the first installed speech-to-text model unless given.
 */
export async function prepareReference(
  engine: Pick<EngineHost, 'run'>,
  dataDir: string,
  clip: string,
  options: { text?: string; language?: string; signal?: AbortSignal } = {},
): Promise<PreparedReference> {
  requireZipVoice(dataDir);
  await requireRegularFile(clip, 'recording');
  const text = options.text?.trim();
  const recognizer = text ? undefined : (await listSttModels(dataDir))[0];
  if (!text && !recognizer) {
    throw new OwnVoiceError(
      'NO_RECOGNIZER',
      'No speech-to-text model is installed to recognize what the recording says: install one (models install), or give the text.',
    );
  }
  const staged = await stageVoiceFolder(dataDir);
  try {
    const { result } = await engine.run(
      `voice-reference-${randomUUID()}`,
      {
        kind: 'voice-reference',
        inputPath: path.resolve(clip),
        outputPath: path.join(staged.dir, REFERENCE_FILE),
        modelsDir: new VoiceFiles(dataDir).modelsDir,
        ...(text ? { text } : { recognizerModelPath: recognizer!.path }),
        ...(options.language ? { language: options.language } : {}),
      },
      { signal: options.signal ?? new AbortController().signal, onProgress: () => undefined },
    );
    return { staged, text: result.text, speechSeconds: result.speechSeconds, language: result.language };
  } catch (error) {
    await staged.discard();
    throw error;
  }
}

/** The language tag a cloned voice is listed under: the recording's, else English (ZipVoice's other language). */
const voiceLanguage = (language: string | null): string =>
  language && /^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$/i.test(language) ? language : 'en';

/**
 * Saves a prepared reference as a cloned voice named `name` with `text` (the recognized text as confirmed or
 * corrected). Refuses without consent; the staged folder is removed whatever happens.
 */
export async function saveClonedVoice(
  library: Pick<VoiceLibrary, 'entries'>,
  dataDir: string,
  prepared: PreparedReference,
  request: { name: string; text: string; consent: boolean },
): Promise<{ id: string; name: string; folder: string }> {
  try {
    if (!request.consent) {
      throw new OwnVoiceError(
        'NO_CONSENT',
        `A voice is cloned only with the speaker's consent: confirm that "${CONSENT_STATEMENT}"`,
      );
    }
    const name = checkNewVoiceName(library, dataDir, request.name);
    const text = request.text.trim();
    if (!text) throw new OwnVoiceError('INVALID_NAME', 'The reference text is empty: say what the recording says.');
    const folder = ownVoiceFolder(name);
    await prepared.staged.publish(folder, {
      name,
      engine: 'zipvoice',
      languageCode: voiceLanguage(prepared.language),
      license: "personal: cloned with the speaker's consent",
      uses: ZIPVOICE_MODEL_ID,
      files: {},
      reference: { audio: REFERENCE_FILE, text },
      creationMode: 'cloned',
      consent: { confirmedAt: new Date().toISOString(), statement: CONSENT_STATEMENT },
    });
    const id = library.entries().find((entry) => entry.engineVoiceId === `custom/${folder}#0`)?.voice.id ?? '';
    return { id, name, folder };
  } finally {
    await prepared.staged.discard();
  }
}

/** Both steps at once (the command line): the recognized text is used as it is unless `text` is given. */
export async function cloneVoice(
  engine: Pick<EngineHost, 'run'>,
  library: Pick<VoiceLibrary, 'entries'>,
  dataDir: string,
  request: { clip: string; name: string; text?: string; language?: string; consent: boolean; signal?: AbortSignal },
): Promise<{ id: string; name: string; folder: string; text: string; speechSeconds: number }> {
  // Name and consent first: no engine work for a request that would be refused anyway.
  checkNewVoiceName(library, dataDir, request.name);
  if (!request.consent)
    throw new OwnVoiceError(
      'NO_CONSENT',
      `A voice is cloned only with the speaker's consent: confirm that "${CONSENT_STATEMENT}"`,
    );
  const prepared = await prepareReference(engine, dataDir, request.clip, request);
  if (!prepared.text) {
    await prepared.staged.discard();
    throw new OwnVoiceError('NO_RECOGNIZER', 'No words were recognized in the recording: give its text instead.');
  }
  const saved = await saveClonedVoice(library, dataDir, prepared, {
    name: request.name,
    text: prepared.text,
    consent: request.consent,
  });
  return { ...saved, text: prepared.text, speechSeconds: prepared.speechSeconds };
}
