/**
 * The lexicon's JSON Schema as a standalone file for the editor's JSON validation of `.speech/lexicon.json`
 * (schemas/lexicon.schema.json, kept equal to this by test/unit/workspace-lexicon.test.ts; regenerate with
 * `node --import tsx scripts/write-lexicon-schema.ts`).
 */
import { lexiconSchemas } from '../contract/lexicon-schema';

export const LEXICON_SCHEMA_FILE = 'schemas/lexicon.schema.json';

export function lexiconJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Speech Studio pronunciation lexicon',
    ...lexiconSchemas.Lexicon,
  };
}
