/**
 * The model catalog: real upstream models with their URLs, sizes, checksums and licences. The JSON lives
 * in `models/catalog.json` (bundled into the build) and is validated against `models/catalog.schema.json`
 * plus the rules a schema cannot say: unique ids and targets, targets that stay inside models/, and
 * `requires` that name existing entries without cycles.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { readFile } from 'node:fs/promises';
import catalogJson from '../../models/catalog.json';
import catalogSchema from '../../models/catalog.schema.json';
import { ModelError } from './model-error';

export type ModelKind = 'stt' | 'diarization-segmentation' | 'speaker-embedding' | 'punctuation' | 'vad' | 'tts-voice' | 'voice-cloning' | 'llm';
export type ChecksumPolicy = 'verify' | 'record-on-first-download';

export interface CatalogFile {
  url: string;
  /** Relative to `<data-dir>/models/`, forward slashes. */
  target: string;
  size: number | null;
  approxSize?: number;
  sha256: string | null;
  checksum: ChecksumPolicy;
  role?: 'model' | 'config' | 'tokens' | 'voices' | 'lexicon' | 'encoder' | 'decoder' | 'vocoder';
  source: string;
}

export interface CatalogEntry {
  id: string;
  kind: ModelKind;
  name: string;
  description?: string;
  languages: string[];
  gender?: 'female' | 'male';
  license: string;
  licenseUrl?: string;
  homepage?: string;
  engine?: 'sherpa-onnx-vits' | 'sherpa-onnx-kokoro' | 'sherpa-onnx-kitten' | 'sherpa-onnx-zipvoice';
  requires?: string[];
  runtime?: 'espeak-ng-data'[];
  files: CatalogFile[];
}

export interface Catalog {
  version: 1;
  models: CatalogEntry[];
}

/** Names under models/ that belong to the installer itself. */
const RESERVED_TARGETS = ['installed.json', '.partial'];

let validateSchema: ValidateFunction | undefined;
let builtin: Catalog | undefined;

function schemaValidator(): ValidateFunction {
  validateSchema ??= new Ajv2020({ strict: true, allErrors: true }).compile(catalogSchema);
  return validateSchema;
}

/** Validates catalog data (already parsed JSON) and returns it typed, or throws INVALID_CATALOG. */
export function parseCatalog(data: unknown): Catalog {
  const validate = schemaValidator();
  if (!validate(data)) {
    const problems = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new ModelError('INVALID_CATALOG', `The model catalog does not match its schema: ${problems.join('; ')}`);
  }
  const catalog = data as Catalog;
  const problems = catalogProblems(catalog);
  if (problems.length > 0) throw new ModelError('INVALID_CATALOG', `The model catalog is inconsistent: ${problems.join('; ')}`);
  return catalog;
}

/** The problems a JSON Schema cannot express; empty when the catalog is consistent. */
export function catalogProblems(catalog: Catalog): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  const targets = new Map<string, string>();
  for (const entry of catalog.models) {
    if (ids.has(entry.id)) problems.push(`duplicate id ${entry.id}`);
    ids.add(entry.id);
    for (const file of entry.files) {
      const segments = file.target.split('/');
      if (segments.some((s) => s === '.' || s === '..')) problems.push(`${entry.id}: target ${file.target} leaves models/`);
      if (RESERVED_TARGETS.includes(segments[0])) problems.push(`${entry.id}: target ${file.target} is reserved`);
      const owner = targets.get(file.target);
      if (owner !== undefined) problems.push(`${entry.id} and ${owner} both install ${file.target}`);
      targets.set(file.target, entry.id);
    }
  }
  for (const entry of catalog.models) {
    for (const required of entry.requires ?? []) {
      if (!ids.has(required)) problems.push(`${entry.id} requires unknown ${required}`);
    }
    if (dependsOn(catalog, entry.id, entry.id, new Set())) problems.push(`${entry.id} requires itself`);
  }
  return problems;
}

function dependsOn(catalog: Catalog, from: string, on: string, seen: Set<string>): boolean {
  const entry = catalog.models.find((e) => e.id === from);
  for (const required of entry?.requires ?? []) {
    if (required === on) return true;
    if (seen.has(required)) continue;
    seen.add(required);
    if (dependsOn(catalog, required, on, seen)) return true;
  }
  return false;
}

/** The catalog shipped with this build. */
export function builtinCatalog(): Catalog {
  builtin ??= parseCatalog(catalogJson);
  return builtin;
}

/** A catalog from a JSON file, an object (tests, custom catalogs), or the built-in one. */
export async function loadCatalog(source?: string | Catalog): Promise<Catalog> {
  if (source === undefined) return builtinCatalog();
  if (typeof source !== 'string') return parseCatalog(source);
  let text: string;
  try {
    text = await readFile(source, 'utf8');
  } catch (error) {
    throw new ModelError('INVALID_CATALOG', `Cannot read the model catalog ${source}: ${(error as Error).message}`);
  }
  try {
    return parseCatalog(JSON.parse(text));
  } catch (error) {
    if (error instanceof ModelError) throw error;
    throw new ModelError('INVALID_CATALOG', `The model catalog ${source} is not valid JSON: ${(error as Error).message}`);
  }
}

export function findEntry(catalog: Catalog, id: string): CatalogEntry {
  const entry = catalog.models.find((e) => e.id === id);
  if (entry) return entry;
  const near = catalog.models.filter((e) => e.id.includes(id) || id.includes(e.id)).map((e) => e.id);
  const hint = near.length > 0 ? ` Did you mean ${near.slice(0, 3).join(', ')}?` : ' Run "models list" to see the catalog.';
  throw new ModelError('UNKNOWN_MODEL', `There is no model "${id}" in the catalog.${hint}`);
}

/** The entry and everything it requires, dependencies first, each once. */
export function installOrder(catalog: Catalog, id: string): CatalogEntry[] {
  const order: CatalogEntry[] = [];
  const visit = (entryId: string): void => {
    if (order.some((e) => e.id === entryId)) return;
    const entry = findEntry(catalog, entryId);
    for (const required of entry.requires ?? []) visit(required);
    order.push(entry);
  };
  visit(id);
  return order;
}

/** Bytes an entry downloads: exact where known, else the rounded size; null when neither is known. */
export function entryBytes(entry: CatalogEntry): number | null {
  let total = 0;
  for (const file of entry.files) {
    const bytes = file.size ?? file.approxSize;
    if (bytes === undefined) return null;
    total += bytes;
  }
  return total;
}

/** The file name an STT model is installed under: a catalog id becomes its file's name; anything else is a file name already. */
export function sttModelFileName(idOrName: string, catalog: Catalog = builtinCatalog()): string {
  const entry = catalog.models.find((candidate) => candidate.id === idOrName && candidate.kind === 'stt');
  return entry?.files[0]?.target.split('/').at(-1) ?? idOrName;
}
