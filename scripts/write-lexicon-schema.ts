/** Writes schemas/lexicon.schema.json from the contract's lexicon schema (run after changing it). */
import { writeFileSync } from 'node:fs';
import { LEXICON_SCHEMA_FILE, lexiconJsonSchema } from '../src/lexicon/lexicon-json-schema';

writeFileSync(LEXICON_SCHEMA_FILE, `${JSON.stringify(lexiconJsonSchema(), null, 2)}\n`);
