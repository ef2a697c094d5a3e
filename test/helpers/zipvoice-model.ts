/**
 * The synthetic random-weight ZipVoice model for tests (generator in test/fixtures/zipvoice/), written into
 * a folder, or "installed" under a data directory where the catalog puts ZipVoice.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { builtinCatalog } from '../../src/models/catalog';
import { writeZipVoiceModel, ZIPVOICE_FILE_NAMES } from '../fixtures/zipvoice/make-zipvoice-model';
import { testModel } from './test-models';

export const ZIPVOICE_CATALOG_ID = 'zipvoice-distill-int8-zh-en-emilia';

/** Piper's espeak-ng IPA tokens (with the space token ZipVoice's front end needs) as the vocabulary. */
const tokens = (): string => readFileSync(testModel('sherpa-synthetic/vits-piper/tokens.txt'), 'utf8');

/** Writes encoder, decoder, vocoder, tokens and lexicon into `dir` under sherpa-onnx's release names. */
export function writeSyntheticZipVoice(dir: string): Record<keyof typeof ZIPVOICE_FILE_NAMES, string> {
  return writeZipVoiceModel(dir, tokens());
}

/** Puts the synthetic model where the catalog installs ZipVoice (the catalog has no lexicon: none is written). */
export function installSyntheticZipVoice(dataDir: string): Record<string, string> {
  const entry = builtinCatalog().models.find((e) => e.id === ZIPVOICE_CATALOG_ID);
  if (!entry) throw new Error(`The catalog has no ${ZIPVOICE_CATALOG_ID}`);
  const names = Object.fromEntries(entry.files.map((f) => [f.role, path.basename(f.target)]));
  const dir = path.join(dataDir, 'models', path.dirname(entry.files[0].target));
  const written = writeZipVoiceModel(dir, tokens(), {
    encoder: names.encoder,
    decoder: names.decoder,
    vocoder: names.vocoder,
    tokens: names.tokens,
    lexicon: '.unused-lexicon.txt',
  });
  const { lexicon: _lexicon, ...files } = written;
  return files;
}
