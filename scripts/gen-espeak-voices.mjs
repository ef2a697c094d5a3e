// Writes src/voices/espeak-voices.json from the installed @echogarden/espeak-ng-emscripten.
// Run after upgrading that package: `node --import tsx scripts/gen-espeak-voices.mjs`.
// test/unit/espeak-catalog.test.ts fails while the committed file and the installed package disagree.
import { writeFile } from 'node:fs/promises';

const { listEspeakVoices } = await import('../src/engine/tts/synthesizers/espeak.ts');
const { toEspeakCatalog } = await import('../src/voices/espeak-catalog.ts');

const catalog = toEspeakCatalog(await listEspeakVoices());
const target = new URL('../src/voices/espeak-voices.json', import.meta.url);
await writeFile(target, `${JSON.stringify(catalog, null, 2)}\n`);
console.log(`Wrote ${catalog.length} voices to ${target.pathname}`);
